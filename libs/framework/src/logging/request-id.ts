import { randomUUID } from 'node:crypto';

/** The header carrying a request's id, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * What an incoming id may look like: 1 to 128 letters, digits and `_ . ~ : ; = + / @ -` (UUIDs,
 * ULIDs, AWS and Cloudflare trace ids, base64). Anything else, control characters included, is
 * replaced, so a client cannot write into the logs through it.
 */
const WELL_FORMED = /^[\w.~:;=+/@-]{1,128}$/;

/**
 * The id to answer a request with: the incoming `X-Request-Id` when the app trusts its proxy
 * (`app.trust_proxy`) and the value is well-formed, otherwise a new UUID. A malformed value is
 * dropped, never echoed nor logged.
 *
 * @example
 * requestIdFor(req.headers['x-request-id'], config.app.trust_proxy);
 */
export function requestIdFor(incoming: string | string[] | undefined, trusted: boolean): string {
  if (trusted && typeof incoming === 'string' && WELL_FORMED.test(incoming)) return incoming;
  return randomUUID();
}
