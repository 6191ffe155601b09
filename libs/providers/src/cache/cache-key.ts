import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** Request header values as Node and Express give them. */
export type HeaderValues = Record<string, string | readonly string[] | undefined>;

/** Canonical parameter JSON longer than this is replaced by its SHA-256 digest in the key. */
const LONGEST_PLAIN_PARAMS = 256;

/**
 * The cache key of one request: HTTP method + route path + the canonical (key-sorted) JSON of the
 * bound parameters, plus a SHA-256 digest of the opted-in `varyHeaders` (names case-insensitive).
 * Parameter key order never matters; header values (API keys!) never appear in clear. Parameters
 * whose JSON is longer than 256 characters appear as `#<SHA-256 digest>`, so keys stay short;
 * short ones stay as they are (hashing every key cost more than the rest of a cache hit).
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
  const json = canonicalJson(params ?? null);
  const shown = json.length > LONGEST_PLAIN_PARAMS ? `#${digest(json)}` : json;
  const names = Object.keys(varyHeaders ?? {});
  if (names.length === 0) return `${verb} ${routePath} ${shown}`;
  const headers: Record<string, string | readonly string[] | null> = {};
  for (const name of names) {
    // A header sent and a header absent must differ; null keeps the absent one in the JSON.
    headers[name.toLowerCase()] = varyHeaders?.[name] ?? null;
  }
  return `${verb} ${routePath} ${shown} ~${digest(canonicalJson(headers))}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
