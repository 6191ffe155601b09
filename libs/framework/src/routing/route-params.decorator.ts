import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { ServerResponse } from 'node:http';
import { BINDS_METADATA } from '../toolkit.constants.js';
import { bindRequest, type RoutedRequest } from './bind-request.js';
import type { BoundValues } from './param-binder.js';

/** Reads the bound value named `name` of this request (all of them without a name). */
export function boundValue(ctx: ExecutionContext, name?: string): unknown {
  const values = bindRequest(
    ctx.getArgByIndex<RoutedRequest>(0),
    ctx.getArgByIndex<ServerResponse>(1),
    ctx.getHandler(),
  );
  if (name === undefined) return values;
  return values instanceof Promise ? values.then((v: BoundValues) => v[name]) : values[name];
}

/** Records that a handler binds toolkit parameters, so `@Route` needs no entry guard. */
export function markBinding(target: object, key: string | symbol | undefined): void {
  if (key === undefined) throw new TypeError('toolkit parameters decorate method parameters only');
  Reflect.defineMetadata(BINDS_METADATA, true, (target as Record<string | symbol, object>)[key]);
}

/**
 * Adds `decorator` as a parameter after every declared one: Nest fills it in, the method never
 * sees it (it declares no such parameter).
 */
export function appendHiddenParam(
  target: object,
  key: string | symbol,
  descriptor: PropertyDescriptor,
  decorator: ParameterDecorator,
): void {
  const declared = Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined;
  const fn = descriptor.value as (...params: unknown[]) => unknown;
  decorator(target, key, Math.max(declared?.length ?? 0, fn.length, nextFreeIndex(target, key)));
}

/** True when the method already declares a parameter of Nest's `paramtype` (e.g. `@Res()`). */
export function hasParamOfType(target: object, key: string | symbol, paramtype: number): boolean {
  return paramIndexOfType(target, key, paramtype) !== undefined;
}

/** Where the method's (first) parameter of Nest's `paramtype` is, hidden ones included. */
function paramIndexOfType(
  target: object,
  key: string | symbol,
  paramtype: number,
): number | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<
    string,
    { index: number }
  >;
  const found = Object.keys(args).find((k) => k.startsWith(`${paramtype}:`));
  return found === undefined ? undefined : args[found].index;
}

function nextFreeIndex(target: object, key: string | symbol): number {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key) ?? {}) as Record<
    string,
    { index: number }
  >;
  return Math.max(0, ...Object.values(args).map((arg) => arg.index + 1));
}
