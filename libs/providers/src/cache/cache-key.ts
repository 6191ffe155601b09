import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** Request header values as Node and Express give them. */
export type HeaderValues = Record<string, string | readonly string[] | undefined>;

/**
 * The cache key of one request: HTTP method + route path + the canonical (key-sorted) JSON of the
 * bound parameters, plus the values of the opted-in `varyHeaders` (names case-insensitive), hashed
 * with SHA-256. Parameter key order never matters; header values (API keys!) never appear in clear.
 * The method and route stay readable in front of the hash: `GET /items/:id <hash>`.
 *
 * @param method - HTTP method, any case.
 * @param routePath - the route's pattern (`/items/:id`), not the concrete URL.
 * @param params - every bound parameter (body keys, query, path params).
 * @param varyHeaders - headers that must also match, e.g. `{ authorization: req.headers.authorization }`.
 *   @default undefined (headers ignored)
 * @example
 * cacheKey('POST', '/translate', { text: 'hi', to: 'fr' }) === cacheKey('post', '/translate', { to: 'fr', text: 'hi' }); // true
 */
export function cacheKey(
  method: string,
  routePath: string,
  params: unknown,
  varyHeaders?: HeaderValues,
): string {
  const verb = method.toUpperCase();
  const headers: Record<string, string | readonly string[] | null> = {};
  for (const [name, value] of Object.entries(varyHeaders ?? {})) {
    // A header sent and a header absent must differ; null keeps the absent one in the JSON.
    headers[name.toLowerCase()] = value ?? null;
  }
  const material = canonicalJson([verb, routePath, params ?? null, headers]);
  const digest = createHash('sha256').update(material).digest('base64url');
  return `${verb} ${routePath} ${digest}`;
}
