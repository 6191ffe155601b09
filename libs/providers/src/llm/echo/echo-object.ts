type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The offline `echo` model's structured reply: the simplest value of a JSON Schema, so
 * `generateObject()` works with no key. `const` and the first `enum` value win; strings are the
 * user's message (cut to `maxLength`), numbers their `minimum` or 0, booleans `false`, arrays
 * `minItems` copies of their item, objects every property; `anyOf`/`oneOf` take the first.
 *
 * @example
 * echoObject({ type: 'object', properties: { city: { type: 'string' } } }, 'Paris');
 * // { city: 'Paris' }
 */
export function echoObject(schema: unknown, text: string, depth = 0): unknown {
  if (!isSchema(schema) || depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  const first = [schema.anyOf, schema.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (first) return echoObject(first[0], text, depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type[0] as unknown) : schema.type;
  switch (type) {
    case 'string': {
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return text.slice(0, max).padEnd(min, '.');
    }
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: count }, () => echoObject(schema.items, text, depth + 1));
    }
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, echoObject(sub, text, depth + 1)]),
      );
    }
    default:
      return isSchema(schema.properties) ? echoObject({ ...schema, type: 'object' }, text) : null;
  }
}
