import type { ParamProblem } from '../errors/validation.error.js';

/** Deepest nesting a stored JSON value (metadata, tool arguments and results) may have. */
export const MAX_JSON_DEPTH = 16;

/**
 * The first reason `value` is not plain JSON every memory backend stores alike (strings without
 * NUL, finite numbers, booleans, null, arrays and plain objects, at most {@link MAX_JSON_DEPTH}
 * levels deep below `depth`), named by its path under `path`; undefined when it is.
 *
 * @example
 * jsonProblem({ score: NaN }, 'metadata', 0); // { param: 'metadata.score', problem: 'must be a finite number' }
 */
export function jsonProblem(value: unknown, path: string, depth: number): ParamProblem | undefined {
  const at = (problem: string): ParamProblem => ({ param: path, problem });
  if (depth > MAX_JSON_DEPTH) return at(`must not nest deeper than ${MAX_JSON_DEPTH} levels`);
  if (value === null || typeof value === 'boolean') return undefined;
  if (typeof value === 'string') {
    return value.includes('\u0000') ? at('must not contain NUL (\\u0000) characters') : undefined;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : at('must be a finite number');
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const problem = jsonProblem(value[i], `${path}[${i}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return at('must be a plain object');
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return at('must not have keys containing NUL (\\u0000)');
      const problem = jsonProblem(item, `${path}.${key}`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return at(`must be JSON (got ${typeof value})`);
}
