import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ARGS_METADATA } from '../toolkit.constants.js';
import {
  normalizeSpec,
  type NormalizedParam,
  type ParamSpec,
  type ParamType,
} from './param-spec.js';
import { signalSafeFactory } from './request-signal.js';
import { boundValue, markBinding } from './route-params.decorator.js';

const readBound = createParamDecorator(
  signalSafeFactory((name: string, ctx: ExecutionContext): unknown => boundValue(ctx, name)),
);

/**
 * Binds one request parameter by name from the path, the JSON body (POST/PUT/PATCH) or the query
 * string (GET/DELETE). Its type comes from the TypeScript annotation (`string`, `number`,
 * `boolean`, arrays, objects) unless `spec.type` (or `spec.schema`, a Standard Schema) says
 * otherwise; it is required unless it has a `default` or `required: false`. All of a route's
 * `@Arg`s are checked together, once per request: one 422 names every offending parameter.
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
    markBinding(target, key);
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
