/**
 * Resolved `limits.*` settings: what one client may cost the application. Every count of 0 turns
 * its limit off.
 *
 * @example
 * # toolkit.yaml
 * limits:
 *   session_requests: 20   # model calls per session (or signed-in user) per window
 *   address_requests: 60   # model calls per client address per window
 *   window: 60s
 */
export interface LimitsSettings {
  /**
   * Requests each session (or user an authentication guard set) may make per `window` on the
   * routes marked `@RateLimit()`; past it they answer 429 with `Retry-After`. 0: no limit.
   * @default 20
   */
  session_requests: number;
  /**
   * Requests each client address may make per `window` on `@RateLimit()` routes, whatever its
   * sessions (a client that drops its cookie gets a new session each time). 0: no limit.
   * @default 60
   */
  address_requests: number;
  /** Seconds of the fixed window the counts above are kept for. @default 60 */
  window: number;
  /**
   * Resumable streams one owner (`@Stream({ resumable: { owner } })`, e.g. a session) may have
   * producing at once in one process; one more answers 429. 0: no limit.
   * @default 3
   */
  streams_per_session: number;
  /**
   * Resumable streams one client address may have producing at once in one process (a client
   * without a cookie gets a new session on every request). 0: no limit.
   * @default 20
   */
  streams_per_address: number;
  /**
   * Producers of one owner that may keep running with no client reading them; when one more
   * client leaves, the oldest of them is stopped at once. 0: no limit.
   * @default 1
   */
  detached_per_session: number;
  /**
   * Seconds a resumable stream's producer keeps running once no client reads it (time for the
   * client to reconnect with `Last-Event-ID`); then it is stopped like a cancelled stream (its
   * model call aborts, the answer so far is kept, marked interrupted). 0: stopped as soon as the
   * client goes.
   * @default 30
   */
  detached_grace: number;
}
