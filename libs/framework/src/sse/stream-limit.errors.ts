import { ToolkitError } from '../../../providers/src/internal.js';

/** Seconds a client refused for too many open streams is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 5;

/**
 * A client asked for one more resumable stream than `limits.streams_per_session` (or
 * `streams_per_address`) allows at once: 429 with `Retry-After`.
 */
export class TooManyStreamsError extends ToolkitError {
  constructor(who: string, limit: number) {
    super(
      `Too many answers in progress for ${who}: at most ${limit} at once; wait for one to end or stop it`,
      {
        statusCode: 429,
        isRetryable: true,
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      },
    );
    this.name = 'TooManyStreamsError';
  }
}

/**
 * The abort reason of a resumable stream's producer that ran with no client reading it past
 * `limits.detached_grace` (or that made its owner exceed `limits.detached_per_session`).
 */
export class StreamDetachedError extends ToolkitError {
  constructor(reason: string) {
    super(`The stream was stopped: ${reason}`, { statusCode: 499 });
    this.name = 'StreamDetachedError';
  }
}
