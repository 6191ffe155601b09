import { ToolkitError } from '../errors/toolkit.error.js';

/**
 * JSON with every object's keys sorted (recursively), so `{ a: 1, b: 2 }` and `{ b: 2, a: 1 }`
 * give the same text. Otherwise exactly `JSON.stringify`: `toJSON` is honoured (dates become ISO
 * strings), `undefined` properties are left out, array order is kept.
 *
 * @throws ToolkitError for values JSON cannot represent (a BigInt, a cycle).
 * @example
 * canonicalJson({ b: [2, { d: 1, c: 0 }], a: 'x' }); // '{"a":"x","b":[2,{"c":0,"d":1}]}'
 */
export function canonicalJson(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, current: unknown) => {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return current;
      const source = current as Record<string, unknown>;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(source).sort()) sorted[key] = source[key];
      return sorted;
    }) as string | undefined;
    return text ?? 'null';
  } catch (error) {
    throw new ToolkitError('Cannot build a cache key: the parameters are not JSON-serialisable', {
      cause: error,
    });
  }
}
