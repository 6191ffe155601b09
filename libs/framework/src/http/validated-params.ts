import type { ArgumentMetadata, Paramtype, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';

/** What Nest records for one parameter of a route (read, never written). */
interface ParamMetadata {
  index: number;
  data?: unknown;
  schema?: unknown;
}

/** Types a `ValidationPipe` leaves to the handler: only a class of the application is a DTO. */
const PLAIN_TYPES = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

/**
 * True when toolkit's validation (`validate: true`) has work on a parameter: Nest's `@Body()`,
 * `@Query()` or `@Param()` declared with a Standard Schema (`{ schema }`, Nest 12) or a DTO class,
 * or a named query/path value typed `number` or `boolean` (converted from text). Every other
 * parameter — custom decorators such as toolkit's `@Arg`, `@Req`, plain `string` or `object`
 * bodies — is handed over as it came. Reads only the metadata Nest gives a pipe, so it is cheap
 * enough to run on every parameter of every request.
 */
export function needsValidation({ type, metatype, data, schema }: ArgumentMetadata): boolean {
  if (type === 'custom') return false;
  if (schema) return true;
  if (typeof metatype !== 'function') return false;
  if (!PLAIN_TYPES.has(metatype)) return true; // a DTO class
  // Nest's `ValidationPipe` converts only named values (`@Query('page')`), never a whole body.
  return type !== 'body' && !!data && (metatype === Number || metatype === Boolean);
}

/**
 * True when toolkit's validation has work on a parameter of `controller.method`
 * (see {@link needsValidation}), so the route may answer 422 under `validate: true`. Reads the
 * metadata Nest recorded for the route; changes nothing.
 */
export function hasValidatedParams(controller: Type, method: string): boolean {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
    Record<string, ParamMetadata> | undefined;
  if (!args) return false;
  const prototype = controller.prototype as object;
  const types = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as unknown[];
  return Object.entries(args).some(([key, param]) =>
    needsValidation({
      type: paramtypeOf(key),
      metatype: types[param.index] as Type | undefined,
      data: typeof param.data === 'string' ? param.data : undefined,
      schema: param.schema as ArgumentMetadata['schema'],
    }),
  );
}

/**
 * True when a method of one of `controllers` has a parameter toolkit's validation has work on
 * (see {@link hasValidatedParams}): without one, the application needs no validation pipe at all.
 */
export function anyValidatedParams(controllers: readonly Type[]): boolean {
  return controllers.some((controller) =>
    methodNames(controller.prototype as object).some((method) =>
      hasValidatedParams(controller, method),
    ),
  );
}

/** The method names of `prototype` and of the classes it extends. */
function methodNames(prototype: object): string[] {
  const names = new Set<string>();
  for (let proto: object | null = prototype; proto && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto))
      if (name !== 'constructor') names.add(name);
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return [...names];
}

/** The `type` a pipe sees for the parameter recorded under `key` (`"<paramtype>:<index>"`). */
function paramtypeOf(key: string): Paramtype {
  switch (Number(key.split(':')[0]) as RouteParamtypes) {
    case RouteParamtypes.BODY:
      return 'body';
    case RouteParamtypes.QUERY:
      return 'query';
    case RouteParamtypes.PARAM:
      return 'param';
    default:
      return 'custom';
  }
}
