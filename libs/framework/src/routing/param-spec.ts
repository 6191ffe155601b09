import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isStandardSchema } from './standard-schema.js';

/** Primitive types a route parameter can be declared with. */
/** `any` accepts every JSON value unchecked. */
export type ParamType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'any';

/** Where a parameter is read from; by default path, then JSON body, then query string. */
export type ParamSource = 'path' | 'body' | 'query';

/**
 * Declaration of one route parameter.
 *
 * @example
 * { type: 'string', default: 'Spanish', description: 'Language to translate into' }
 */
export interface ParamSpec {
  /** Checked type; query-string values are converted to it. @default 'string' for app.route */
  type?: ParamType;
  /** A missing required parameter is a 422. @default true unless `default` is given */
  required?: boolean;
  /** Value used when the parameter is absent (or `null`); makes it optional. */
  default?: unknown;
  /** Allowed values (e.g. `['formal', 'casual']`); anything else is a 422 listing them. */
  oneOf?: readonly (string | number | boolean)[];
  /** Smallest allowed number (for `number`/`integer`). */
  min?: number;
  /** Largest allowed number (for `number`/`integer`). */
  max?: number;
  /** Longest allowed string, in characters, or array, in items. */
  maxLength?: number;
  /** Restrict the parameter to one source. */
  in?: ParamSource;
  /** Shown in the OpenAPI document. */
  description?: string;
  /**
   * A Standard Schema (zod, valibot, arktype, ...) that validates and converts the raw value
   * instead of `type` and the constraints above; its issues are 422 details named by the
   * parameter (`user.email`). Query and path values reach it as text.
   */
  schema?: StandardSchemaV1;
}

/**
 * Parameters of a functional route: a bare type name is shorthand for `{ type }`, and a
 * Standard Schema for `{ schema }`.
 *
 * @example
 * { text: 'string', max_tokens: { type: 'integer', default: 256 }, user: z.object({ id: z.string() }) }
 */
export type ParamsDeclaration = Record<string, ParamType | ParamSpec | StandardSchemaV1>;

type TypeOf<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'array'
        ? unknown[]
        : T extends 'object'
          ? Record<string, unknown>
          : unknown;

type ValueOf<S> = S extends ParamType
  ? TypeOf<S>
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : S extends { schema: StandardSchemaV1; required: false }
      ? StandardSchemaV1.InferOutput<S['schema']> | undefined
      : S extends { schema: StandardSchemaV1 }
        ? StandardSchemaV1.InferOutput<S['schema']>
        : S extends { default: unknown }
          ? TypeOf<S extends { type: infer T } ? T : 'string'>
          : S extends { required: false }
            ? TypeOf<S extends { type: infer T } ? T : 'string'> | undefined
            : TypeOf<S extends { type: infer T } ? T : 'string'>;

/** The object a functional handler receives for a given declaration. */
export type ParamsOf<D extends ParamsDeclaration> = { [K in keyof D]: ValueOf<D[K]> };

/** A declaration in its normalised form. */
export interface NormalizedParam {
  name: string;
  type: ParamType;
  required: boolean;
  default?: unknown;
  in?: ParamSource;
  description?: string;
  oneOf?: readonly (string | number | boolean)[];
  min?: number;
  max?: number;
  maxLength?: number;
  schema?: StandardSchemaV1;
}

/** Turns a declaration map into the normalised list the binder and OpenAPI use. */
export function normalizeParams(declaration: ParamsDeclaration): NormalizedParam[] {
  return Object.entries(declaration).map(([name, raw]) => {
    const spec: ParamSpec =
      typeof raw === 'string' ? { type: raw } : isStandardSchema(raw) ? { schema: raw } : raw;
    return normalizeSpec(name, spec, spec.type ?? 'string');
  });
}

/** Normalises one spec; `inferred` is the type to use when the spec names none. */
export function normalizeSpec(name: string, spec: ParamSpec, inferred: ParamType): NormalizedParam {
  const hasDefault = 'default' in spec;
  return {
    name,
    type: spec.schema ? 'any' : (spec.type ?? inferred),
    required: spec.required ?? !hasDefault,
    ...(hasDefault ? { default: spec.default } : {}),
    ...(spec.in ? { in: spec.in } : {}),
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.oneOf ? { oneOf: spec.oneOf } : {}),
    ...(spec.min !== undefined ? { min: spec.min } : {}),
    ...(spec.max !== undefined ? { max: spec.max } : {}),
    ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}),
    ...(spec.schema ? { schema: spec.schema } : {}),
  };
}
