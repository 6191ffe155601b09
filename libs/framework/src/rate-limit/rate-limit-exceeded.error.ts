import { ToolkitError } from '../../../providers/src/internal.js';

/**
 * A client made more requests than a rate limit allows: 429, with `Retry-After` (whole seconds
 * until its window ends) and a message naming the limit.
 *
 * @example
 * throw new RateLimitExceededError('this address', 60, 60, 12);
 * // 429 { "error": "Rate limit exceeded for this address: at most 60 requests per 60 s; try again in 12 s" }
 */
export class RateLimitExceededError extends ToolkitError {
  constructor(
    /** Who went over: `this session`, `this address`, `this API key`. */
    readonly who: string,
    /** Requests allowed per window. */
    readonly limit: number,
    /** The window, in seconds. */
    readonly windowSeconds: number,
    /** Seconds until the window ends. */
    readonly retryAfter: number,
  ) {
    super(
      `Rate limit exceeded for ${who}: at most ${limit} requests per ${windowSeconds} s; try again in ${retryAfter} s`,
      {
        statusCode: 429,
        isRetryable: true,
        headers: { 'Retry-After': String(retryAfter) },
        body: { retry_after: retryAfter },
      },
    );
  }
}
