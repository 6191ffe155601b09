import { ARGS_METADATA, ROUTE_METADATA, STREAM_METADATA } from '../toolkit.constants.js';
import type { RouteMetadata } from '../routing/route.decorator.js';
import type { StreamOptions } from '../routing/stream.decorator.js';
import type { NormalizedParam } from '../routing/param-spec.js';

/** Everything the interceptor needs about one handler, read once and cached. */
export interface RouteInfo {
  /** Methods accepted when the route answers several (single-method routes are Nest's job). */
  methods?: string[];
  /** Declared parameters (`params` option and `@Arg`s); undefined → pass every input through. */
  params?: NormalizedParam[];
  stream?: StreamOptions;
}

const cache = new WeakMap<object, RouteInfo | null>();

/** The toolkit view of a handler, or undefined for plain Nest handlers. */
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
  if (!route && !stream) return null;
  const args = Reflect.getMetadata(ARGS_METADATA, handler) as NormalizedParam[] | undefined;
  const declared = [...(route?.params ?? []), ...(args ?? [])];
  return {
    ...(route && route.methods.length > 1 ? { methods: route.methods } : {}),
    ...(route?.params || args ? { params: declared } : {}),
    ...(stream ? { stream } : {}),
  };
}
