import { LlmAbortedError, ProviderTimeoutError } from '../llm.errors.js';
import type { LlmErrorContext } from '../llm.errors.js';

/**
 * One try of one model: an AbortController linked to the caller's signal, plus the idle timer
 * that turns a silent stream into a 504. Knows why it was aborted, so SDK abort errors (or
 * streams that just stop) become the right toolkit error.
 */
export class CallAttempt {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  private readonly onCallerAbort = (): void => this.controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    private readonly context: LlmErrorContext,
    private readonly timeoutMs: number,
  ) {
    if (callerSignal?.aborted) this.controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** The signal handed to the SDK. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the idle timer: no stream part within `timeoutMs` aborts with a timeout. */
  armIdleTimer(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error(`no data for ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  /** Stops the idle timer (a part arrived). */
  disarmIdleTimer(): void {
    clearTimeout(this.timer);
  }

  /** Aborts the upstream request because nobody reads the answer any more. */
  cancel(): void {
    this.controller.abort(new Error('stream closed by its consumer'));
  }

  /** The error to surface for a failure of this attempt; an abort is explained by its cause. */
  explain(error: unknown): unknown {
    if (error instanceof ProviderTimeoutError || error instanceof LlmAbortedError) return error;
    if (this.timedOut) return new ProviderTimeoutError(this.context, this.timeoutMs, error);
    if (this.callerSignal?.aborted) return new LlmAbortedError(this.context, error);
    return error;
  }

  /** Throws when the attempt was aborted (streams may end quietly on abort). */
  throwIfAborted(): void {
    if (this.timedOut || this.callerSignal?.aborted) throw this.explain(undefined);
  }

  /** Stops the timer and unlinks from the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}
