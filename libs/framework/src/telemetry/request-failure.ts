import { ToolkitError } from '../../../providers/src/internal.js';
import { currentRequest } from '../logging/request-context.js';

/** A backend whose failures `toolkit_backend_errors_total` counts (its `backend` label). */
export type BackendName = 'memory' | 'cache' | 'stream_log';

/** A failure of a request that the metrics count, told to `RequestContext.onFailure`. */
export type RequestFailure =
  { kind: 'budget-refusal' } | { kind: 'backend-error'; backend: BackendName };

/** Errors already reported: one error reaching two places (a stream, then the filter) counts once. */
const reported = new WeakSet<object>();

/**
 * What `error` means for the metrics: a spent daily budget (`BudgetExceededError`), a memory,
 * cache or stream log backend down, or nothing. Matched by name, since the error may come from a
 * second copy of toolkit (as `ToolkitError.isInstance` allows).
 *
 * @example
 * failureOf(new BudgetExceededError(2, 3600)); // { kind: 'budget-refusal' }
 */
export function failureOf(error: unknown): RequestFailure | undefined {
  if (!ToolkitError.isInstance(error)) return undefined;
  switch (error.name) {
    case 'BudgetExceededError':
      return { kind: 'budget-refusal' };
    case 'MemoryUnavailableError':
      return { kind: 'backend-error', backend: 'memory' };
    case 'CacheUnavailableError':
      return { kind: 'backend-error', backend: 'cache' };
    default:
      // The stream log's failures are plain 503s; their message names the stream log.
      return error.statusCode === 503 && error.message.startsWith('Stream log unavailable')
        ? { kind: 'backend-error', backend: 'stream_log' }
        : undefined;
  }
}

/**
 * Tells the request being served (its `onFailure`, the metrics of `telemetry.metrics`) about
 * `error` when it is one the metrics count (see {@link failureOf}); each error once, however
 * many places see it. Called where errors reach the framework: its exception filter, a stream
 * failing after it began, the cache interceptor bypassing its backend.
 *
 * @example
 * catch (error) { reportFailure(error); throw error; }
 */
export function reportFailure(error: unknown): void {
  if (typeof error !== 'object' || error === null || reported.has(error)) return;
  const failure = failureOf(error);
  if (!failure) return;
  reported.add(error);
  currentRequest()?.onFailure?.(failure);
}
