import { ToolkitError } from '../errors/toolkit.error.js';
import { LlmAbortedError } from './llm.errors.js';

/**
 * Whether a failed model may hand over to the next one: only for retryable failures (429, 5xx,
 * timeouts, unreachable hosts), never for 400/401/403 or a missing key, never once the caller
 * aborted, and only while there is a next model.
 */
export function canFallBack(
  error: unknown,
  index: number,
  count: number,
  signal: AbortSignal | undefined,
): boolean {
  if (index >= count - 1 || signal?.aborted) return false;
  if (error instanceof LlmAbortedError) return false;
  return ToolkitError.isInstance(error) && error.isRetryable;
}
