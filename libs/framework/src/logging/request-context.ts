import { AsyncLocalStorage } from 'node:async_hooks';
import type { UsageReport } from '../../../providers/src/index.js';
import type { RequestFailure } from '../telemetry/request-failure.js';

/** The LLM usage of one request, summed over its calls (see `recordRequestUsage`). */
export interface RequestUsage {
  /** Model of the last call. */
  model: string;
  /** Provider of the last call. */
  provider: string;
  /** Calls summed here. */
  calls: number;
  /** Prompt tokens of every call. */
  inputTokens: number;
  /** Generated tokens of every call. */
  outputTokens: number;
  /** USD, when every call's price was known. */
  costUsd?: number;
  /** Milliseconds to the first token of the request's first streamed call. */
  timeToFirstTokenMs?: number;
}

/** What toolkit keeps about the request being served, readable anywhere during it. */
export interface RequestContext {
  /** The request's id, as sent back in `X-Request-Id`. */
  readonly id: string;
  /** LLM usage reported during the request, if any. */
  usage?: RequestUsage;
  /** Also told each usage report of the request (the metrics of `telemetry.metrics`). */
  onUsage?: (report: UsageReport) => void;
  /** Told the budget refusals and backend failures of the request (see `reportFailure`). */
  onFailure?: (failure: RequestFailure) => void;
}

/**
 * One store per process, even with two copies of toolkit loaded (a host and a plugin): the id a
 * toolkit route sets is the one every logger reads.
 */
const STORE = Symbol.for('toolkit:request-context');
const storage: AsyncLocalStorage<RequestContext> =
  ((globalThis as Record<symbol, unknown>)[STORE] as
    AsyncLocalStorage<RequestContext> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[STORE] = new AsyncLocalStorage<RequestContext>());

/** Runs `fn` as part of the request of `context` (what its logs and usage belong to). */
export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being served, if any. */
export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * The id of the request being served (the `X-Request-Id` of its answer), or `undefined` outside
 * a request. Toolkit's logger adds it to every line; a `LoggerService` of yours passed to
 * `new App({ logger })` can read it here.
 *
 * @example
 * class MyLogger implements LoggerService {
 *   log(message: unknown) {
 *     console.log(JSON.stringify({ message, requestId: currentRequestId() }));
 *   }
 *   error() {}
 *   warn() {}
 * }
 */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.id;
}

/**
 * Adds an LLM call's usage to the request being served, for its access log line
 * (`app.access_log`): model, tokens, cost and time to first token. The injected `LLM` reports its calls already; pass
 * it as `onUsage` to an `LLM` you create yourself. Outside a request it does nothing.
 *
 * @example
 * const llm = new LLM('gpt-4o-mini', { onUsage: recordRequestUsage });
 */
export function recordRequestUsage(report: UsageReport): void {
  const context = storage.getStore();
  if (!context) return;
  context.onUsage?.(report);
  const before = context.usage;
  const costUsd =
    report.costUsd === undefined || (before && before.costUsd === undefined)
      ? undefined
      : (before?.costUsd ?? 0) + report.costUsd;
  // The first token the client waited for is the first streamed call's.
  const timeToFirstTokenMs = before?.timeToFirstTokenMs ?? report.timeToFirstTokenMs;
  context.usage = {
    model: report.model,
    provider: report.provider,
    calls: (before?.calls ?? 0) + 1,
    inputTokens: (before?.inputTokens ?? 0) + report.inputTokens,
    outputTokens: (before?.outputTokens ?? 0) + report.outputTokens,
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(timeToFirstTokenMs === undefined ? {} : { timeToFirstTokenMs }),
  };
}
