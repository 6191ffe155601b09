import { isAbortError } from './abort.js';

/** The `fetch` shape both provider SDKs accept. */
export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

/**
 * Milliseconds a response asks the client to wait, from `retry-after-ms` or `Retry-After`
 * (seconds or an HTTP date); undefined when absent or unreadable.
 */
export function parseRetryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number.parseFloat(ms))) return Math.max(0, Number.parseFloat(ms));
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The `fetch` given to both SDKs. Two adjustments, both so the SDKs' own retry loop does the
 * right thing:
 * - a 429/503 whose `Retry-After` exceeds `maxRetryAfterMs` gets `x-should-retry: false` (a
 *   header both SDKs obey), so the call fails at once and the caller falls over to its next
 *   model or answers 429 instead of holding the request open for a minute;
 * - an abort from the SDK's own timer is rethrown as a plain "timed out" error: the SDKs
 *   recognise `AbortError` with `instanceof`, which fails across realms (e.g. jest's VM
 *   contexts), turning timeouts into connection errors. Caller aborts are unaffected (the SDKs
 *   check the caller's signal first).
 */
export function providerFetch(
  maxRetryAfterMs: number,
  base: FetchFunction = (input, init) => fetch(input, init),
): FetchFunction {
  return async (input, init) => {
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      if (isAbortError(error)) throw new Error('Request timed out', { cause: error });
      throw error;
    }
    if (response.status !== 429 && response.status !== 503) return response;
    const waitMs = parseRetryAfterMs(response.headers);
    if (waitMs === undefined || waitMs <= maxRetryAfterMs) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
