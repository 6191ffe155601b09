import { ChatSpan } from '../telemetry/chat-span.js';
import type { ChatSpanContext } from '../telemetry/chat-span.js';
import { canFallBack } from './fallback.js';
import type { ModelTarget } from './model-target.js';
import { CallAttempt } from './provider/call-attempt.js';
import type { GenerateResult, ModelRequest } from './provider/language-model.interface.js';

/** One non-streamed call over a fallback list. Internal. */
export interface GenerateCall {
  targets: readonly ModelTarget[];
  request: (target: ModelTarget, signal: AbortSignal) => ModelRequest;
  signal: AbortSignal | undefined;
  /** Parent and prices of each attempt's `chat` span. */
  trace?: ChatSpanContext;
}

/**
 * Runs a non-streamed call on the first model, moving to the next one on a retryable failure
 * (429, 5xx, timeout, unreachable host). Other failures, and the last model's, are thrown.
 * Each attempt is one `chat` span (a failed one carries `error.type`).
 */
export async function generateWithFallback(
  call: GenerateCall,
): Promise<{ result: GenerateResult; target: ModelTarget }> {
  let lastError: unknown;
  for (const [index, target] of call.targets.entries()) {
    const attempt = new CallAttempt(call.signal, target.context, target.timeoutMs);
    let span: ChatSpan | undefined;
    try {
      const request = call.request(target, attempt.signal);
      span = ChatSpan.start(target, request, false, call.trace);
      const model = target.languageModel();
      const result = await (span
        ? span.run(() => model.generate(request))
        : model.generate(request));
      span?.succeed(result);
      return { result, target };
    } catch (error) {
      lastError = attempt.explain(error);
      span?.fail(lastError);
      if (!canFallBack(lastError, index, call.targets.length, call.signal)) throw lastError;
    } finally {
      attempt.dispose();
    }
  }
  throw lastError;
}
