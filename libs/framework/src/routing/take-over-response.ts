import { Res } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';

const RES_PARAM_TYPE = 1; // RouteParamtypes.RESPONSE in @nestjs/common

/**
 * Lets toolkit write the response of a route itself. It appends Nest's own `@Res()` parameter
 * after the method's declared ones (the method never sees it), which tells Nest not to reply; the
 * toolkit interceptor then sends tuples, text, 204s and SSE streams with exactly the status and
 * headers the handler meant. Idempotent, so `@Route` and `@Stream` can both call it.
 */
export function takeOverResponse(
  target: object,
  key: string | symbol,
  descriptor: PropertyDescriptor,
): void {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<
    string,
    unknown
  >;
  if (Object.keys(args).some((k) => k.startsWith(`${RES_PARAM_TYPE}:`))) return;
  const declared = Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined;
  const fn = descriptor.value as (...params: unknown[]) => unknown;
  const indexes = Object.values(args).map((a) => (a as { index: number }).index);
  const index = Math.max(declared?.length ?? 0, fn.length, ...indexes.map((i) => i + 1));
  Res()(target, key, index);
}
