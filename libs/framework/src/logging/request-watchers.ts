import type { AccessLogFields } from './access-log-record.js';

/** Told the fields of each request's access line once the request is over. */
export type RequestWatcher = (fields: Readonly<AccessLogFields>) => void;

/**
 * One set per process, even with two copies of toolkit loaded: `toolkit dev`'s serving process
 * watches with its own copy while the app may use another.
 */
const KEY = Symbol.for('toolkit:request-watchers');
const watchers: Set<RequestWatcher> =
  ((globalThis as Record<symbol, unknown>)[KEY] as Set<RequestWatcher> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[KEY] = new Set<RequestWatcher>());

/**
 * Tells `watcher` about every request the apps of this process finish, with the fields of its
 * access line (route pattern, status, and for LLM routes model, tokens, cost, time to first
 * token), whether or not `app.access_log` writes that line. What `toolkit dev` prints its
 * per-request LLM line from. A watcher that throws is ignored.
 *
 * @returns a function that stops watching
 * @example
 * const stop = watchRequests((f) => {
 *   if (f.model) console.log(`${f.method} ${f.route} ${f.model} ${f.inputTokens}→${f.outputTokens}`);
 * });
 */
export function watchRequests(watcher: RequestWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** True when some {@link watchRequests} watcher listens (finished requests must be measured). */
export function requestsWatched(): boolean {
  return watchers.size > 0;
}

/** Tells every watcher about a finished request. */
export function tellRequestWatchers(fields: Readonly<AccessLogFields>): void {
  for (const watcher of watchers) {
    try {
      watcher(fields);
    } catch {
      // A watcher's bug must not break the request that is already answered.
    }
  }
}
