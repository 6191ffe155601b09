import { canFallBack } from './fallback.js';
import type { ModelTarget } from './model-target.js';
import { CallAttempt } from './provider/call-attempt.js';
import type { GenerateResult, ModelRequest } from './provider/language-model.interface.js';

/** One non-streamed call over a fallback list. Internal. */
export interface GenerateCall {
  targets: readonly ModelTarget[];
  request: (target: ModelTarget, signal: AbortSignal) => ModelRequest;
  signal: AbortSignal | undefined;
}

/**
 * Runs a non-streamed call on the first model, moving to the next one on a retryable failure
 * (429, 5xx, timeout, unreachable host). Other failures, and the last model's, are thrown.
 */
export async function generateWithFallback(
  call: GenerateCall,
): Promise<{ result: GenerateResult; target: ModelTarget }> {
  let lastError: unknown;
  for (const [index, target] of call.targets.entries()) {
    const attempt = new CallAttempt(call.signal, target.context, target.timeoutMs);
    try {
      const result = await target.languageModel().generate(call.request(target, attempt.signal));
      return { result, target };
    } catch (error) {
      lastError = attempt.explain(error);
      if (!canFallBack(lastError, index, call.targets.length, call.signal)) throw lastError;
    } finally {
      attempt.dispose();
    }
  }
  throw lastError;
}
