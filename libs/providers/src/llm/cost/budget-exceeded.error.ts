import { ToolkitError } from '../../errors/toolkit.error.js';

/**
 * A user's daily LLM budget (`llm.budget.per_user_usd_per_day`) is spent: answered 429
 * `{ error }` with `Retry-After` set to the seconds until the next window (00:00 UTC).
 */
export class BudgetExceededError extends ToolkitError {
  constructor(
    /** The daily limit in USD. */
    readonly limitUsd: number,
    /** Seconds until the budget resets. */
    readonly retryAfterSeconds: number,
  ) {
    super(`The daily LLM budget of $${limitUsd} for this user is spent; it resets at 00:00 UTC`, {
      statusCode: 429,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}
