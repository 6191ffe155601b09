import type { NormalizedParam } from '../routing/param-spec.js';

/** The JSON Schema of one parameter, in the shape OpenAPI documents take. */
export type ParamSchema = {
  type?: NormalizedParam['type'];
  items?: Record<string, never>;
  default?: unknown;
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
};

/**
 * The JSON Schema of one `@Arg`/`params` parameter, for toolkit's own OpenAPI document and the
 * `@nestjs/swagger` bridge alike (type, default, description, `oneOf` as `enum`, `min`/`max`,
 * `maxLength`), with the `items` that OpenAPI 3.0 requires of an array. A parameter checked by a
 * Standard Schema, or typed `any`, accepts any JSON value: `{}`.
 */
export function paramSchema(param: NormalizedParam): ParamSchema {
  const schema: ParamSchema = {};
  if (param.type !== 'any') schema.type = param.type;
  if (param.type === 'array') schema.items = {};
  if ('default' in param) schema.default = param.default;
  if (param.description) schema.description = param.description;
  if (param.oneOf) schema.enum = [...param.oneOf];
  if (param.min !== undefined) schema.minimum = param.min;
  if (param.max !== undefined) schema.maximum = param.max;
  if (param.maxLength !== undefined) {
    if (param.type === 'array') schema.maxItems = param.maxLength;
    else schema.maxLength = param.maxLength;
  }
  return schema;
}
