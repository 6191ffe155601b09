import { HttpStatus, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import type { StreamOptions } from '../sse/stream-options.js';
import { ARGS_METADATA, ROUTE_METADATA, STREAM_METADATA } from '../toolkit.constants.js';
import type { NormalizedParam } from './param-spec.js';
import type { RouteMetadata } from './route.decorator.js';

/** Everything the request path needs about one toolkit handler, read once and cached. */
export interface RouteInfo {
  /** Methods accepted when the route answers several (a single method is Nest's routing). */
  readonly methods?: readonly string[];
  /** Declared parameters (`params` and `@Arg`s); undefined → every input is passed through. */
  readonly params?: readonly NormalizedParam[];
  /** `@Stream()` options when the route streams. */
  readonly stream?: StreamOptions;
  /** The status Nest hands to the adapter's `reply()` for a successful result. */
  readonly successStatus: number;
  /** True when `@HttpCode()` chose that status (toolkit's own defaults then step aside). */
  readonly explicitStatus: boolean;
}

const cache = new WeakMap<object, RouteInfo | null>();

/**
 * The toolkit view of a handler (`@Route`, `@Stream` or `@Arg` on it), or undefined for a plain
 * Nest handler, which toolkit leaves alone.
 */
export function routeInfo(handler: object): RouteInfo | undefined {
  let info = cache.get(handler);
  if (info === undefined) {
    info = read(handler);
    cache.set(handler, info);
  }
  return info ?? undefined;
}

function read(handler: object): RouteInfo | null {
  const route = Reflect.getMetadata(ROUTE_METADATA, handler) as RouteMetadata | undefined;
  const stream = Reflect.getMetadata(STREAM_METADATA, handler) as StreamOptions | undefined;
  const args = Reflect.getMetadata(ARGS_METADATA, handler) as NormalizedParam[] | undefined;
  if (!route && !stream && !args) return null;
  const httpCode = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  const nestDefault = method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK;
  return {
    ...(route && route.methods.length > 1 ? { methods: route.methods } : {}),
    ...(route?.params || args ? { params: [...(route?.params ?? []), ...(args ?? [])] } : {}),
    ...(stream ? { stream } : {}),
    successStatus: httpCode ?? nestDefault,
    explicitStatus: httpCode !== undefined,
  };
}
