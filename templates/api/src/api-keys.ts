import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** What the API reads of a request: the same on Express and on Fastify. */
export interface CallerRequest {
  headers: IncomingHttpHeaders;
  /** The client's address (behind a proxy: with `app.trust_proxy`, from X-Forwarded-For). */
  ip?: string;
}

/** The key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(req: CallerRequest): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim() || undefined;
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
}

/**
 * Who calls, for per-key state (rate-limit counters, conversation memory): `key:` and a digest of
 * the presented key, so the key itself is never stored or logged. Undefined without a key.
 */
export function callerOf(req: CallerRequest): string | undefined {
  const key = presentedKey(req);
  return key === undefined ? undefined : `key:${digest(key).toString('hex').slice(0, 32)}`;
}

/** Parses API_KEYS (comma-separated) into digests, so comparisons take the same time whatever the key. */
export function parseKeys(list: string | undefined): Buffer[] {
  return (list ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '' && !key.startsWith('<'))
    .map(digest);
}

/** Constant-time check against every configured key (no early exit, no length leak). */
export function isValidKey(candidate: string, keys: readonly Buffer[]): boolean {
  const presented = digest(candidate);
  let valid = false;
  for (const key of keys) valid = timingSafeEqual(presented, key) || valid;
  return valid;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
