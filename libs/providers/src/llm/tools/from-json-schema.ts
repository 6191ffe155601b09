/** A JSON Schema written `as const`; the subset {@link FromJsonSchema} turns into a type. */
export type JsonSchemaLike = Readonly<Record<string, unknown>>;

type Required<S> = S extends { required: readonly (infer K)[] } ? K : never;

type ObjectOf<S> = S extends { properties: infer P }
  ? {
      [K in keyof P as K extends Required<S> ? K : never]: FromJsonSchema<P[K]>;
    } & {
      [K in keyof P as K extends Required<S> ? never : K]?: FromJsonSchema<P[K]>;
    } extends infer O
    ? { [K in keyof O]: O[K] }
    : never
  : Record<string, unknown>;

/**
 * The TypeScript type a JSON Schema written `as const` describes: `enum`/`const`, `string`,
 * `number`/`integer`, `boolean`, `null`, `array` of `items`, and `object` with `properties` and
 * `required`. Anything else is `unknown`.
 *
 * @example
 * const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;
 * type Args = FromJsonSchema<typeof schema>; // { city: string }
 */
export type FromJsonSchema<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: 'string' }
      ? string
      : S extends { type: 'number' | 'integer' }
        ? number
        : S extends { type: 'boolean' }
          ? boolean
          : S extends { type: 'null' }
            ? null
            : S extends { type: 'array'; items: infer I }
              ? FromJsonSchema<I>[]
              : S extends { type: 'array' }
                ? unknown[]
                : S extends { type: 'object' }
                  ? ObjectOf<S>
                  : unknown;
