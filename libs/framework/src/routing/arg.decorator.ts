import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ARGS_METADATA } from '../toolkit.constants.js';
import {
  normalizeSpec,
  type NormalizedParam,
  type ParamSpec,
  type ParamType,
} from './param-spec.js';

/** Where the toolkit interceptor leaves the checked parameter values on the request. */
export const BOUND_PARAMS = Symbol.for('toolkit:bound-params');

/** A request after binding: what `@Arg` reads. */
export interface BoundRequest {
  [BOUND_PARAMS]?: Record<string, unknown>;
}

const readBound = createParamDecorator((name: string, ctx: ExecutionContext): unknown => {
  const request = ctx.switchToHttp().getRequest<BoundRequest>();
  return request[BOUND_PARAMS]?.[name];
});

/**
 * Binds one request parameter by name from the path, the JSON body (POST/PUT/PATCH) or the query
 * string (GET/DELETE). Its type comes from the TypeScript annotation (`string`, `number`,
 * `boolean`, arrays, objects) unless `spec.type` says otherwise; it is required unless it has a
 * `default` or `required: false`. All of a route's `@Arg`s are checked together: one 422 names
 * every offending parameter.
 *
 * @example
 * @Route('/translate', { methods: ['POST'] })
 * translate(@Arg('text') text: string, @Arg('target_lang', { default: 'Spanish' }) lang: string) {}
 */
export function Arg(name: string, spec: ParamSpec = {}): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new TypeError('@Arg() can only decorate a method parameter');
    const types = Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined;
    const param = normalizeSpec(name, spec, typeFromDesign(types?.[index]));
    const method = (target as Record<string | symbol, object>)[key];
    const existing = (Reflect.getMetadata(ARGS_METADATA, method) ?? []) as NormalizedParam[];
    // Parameter decorators run last parameter first: prepend to keep declaration order.
    Reflect.defineMetadata(
      ARGS_METADATA,
      [param, ...existing.filter((p) => p.name !== name)],
      method,
    );
    readBound(name)(target, key, index);
  };
}

function typeFromDesign(type: unknown): ParamType {
  if (type === String) return 'string';
  if (type === Number) return 'number';
  if (type === Boolean) return 'boolean';
  if (type === Array) return 'array';
  return 'any';
}
