import { ChatSpan } from '../telemetry/chat-span.js';
import type { ChatSpanContext } from '../telemetry/chat-span.js';
import { canFallBack } from './fallback.js';
import type { ModelTarget } from './model-target.js';
import { CallAttempt } from './provider/call-attempt.js';
import type { ModelRequest, StreamPart } from './provider/language-model.interface.js';

/** The finish part of a stream. */
export type FinishPart = Extract<StreamPart, { type: 'finish' }>;

/** What a part stream relays: text deltas and complete tool calls. */
export type ContentPart = Extract<StreamPart, { type: 'text-delta' | 'tool-call' }>;

/** One streamed call over a fallback list. Internal. */
export interface StreamCall {
  targets: readonly ModelTarget[];
  request: (target: ModelTarget, signal: AbortSignal) => ModelRequest;
  signal: AbortSignal | undefined;
  /**
   * Called with the finish part; `firstContentAt` is the `performance.now()` of the first text
   * or tool-call part (absent when none came before the finish).
   */
  onFinish: (target: ModelTarget, finish: FinishPart, firstContentAt?: number) => void;
  /** Parent and prices of each attempt's `chat` span. */
  trace?: ChatSpanContext;
}

/** One attempt's state while its parts are relayed. */
interface Attempt {
  control: CallAttempt;
  target: ModelTarget;
  span: ChatSpan | undefined;
  firstContentAt: number;
}

/** Next part; once the provider accepted the request, waiting longer than the timeout aborts. */
async function pull(
  iterator: AsyncIterator<StreamPart>,
  attempt: CallAttempt,
  timed: boolean,
): Promise<IteratorResult<StreamPart>> {
  if (timed) attempt.armIdleTimer();
  try {
    return await iterator.next();
  } catch (error) {
    throw attempt.explain(error);
  } finally {
    attempt.disarmIdleTimer();
  }
}

async function* relay(
  iterator: AsyncIterator<StreamPart>,
  attempt: Attempt,
  first: ContentPart,
  call: StreamCall,
): AsyncGenerator<ContentPart> {
  const { control, span } = attempt;
  let finished = false;
  let failed = false;
  try {
    yield first;
    for (;;) {
      const next = await pull(iterator, control, true);
      if (next.done) {
        control.throwIfAborted();
        finished = true;
        span?.end();
        return;
      }
      const part = next.value;
      span?.part(part);
      if (part.type === 'text-delta' || part.type === 'tool-call') yield part;
      else if (part.type === 'finish') call.onFinish(attempt.target, part, attempt.firstContentAt);
    }
  } catch (error) {
    failed = true;
    span?.fail(error);
    throw error;
  } finally {
    if (!finished) {
      // The consumer stopped (client gone) or the stream failed: close the upstream request.
      if (!failed) span?.abandon();
      control.cancel();
      await iterator.return?.().catch(() => undefined);
    }
    control.dispose();
  }
}

async function* nothing<T>(): AsyncGenerator<T> {}

async function* textOf(parts: AsyncIterable<ContentPart>): AsyncGenerator<string> {
  for await (const part of parts) if (part.type === 'text-delta') yield part.text;
}

/** Like {@link openPartStream}, text only. */
export async function openStream(call: StreamCall): Promise<AsyncIterable<string>> {
  return textOf(await openPartStream(call));
}

/**
 * Opens a stream on the first model that produces text or a tool call, moving to the next model on a
 * retryable failure only BEFORE the first token. Resolves once the first chunk is in hand, so
 * failures to start reject here (and can answer a plain HTTP error); later failures are thrown
 * by the iterator, never hidden by a silent switch.
 */
export async function openPartStream(call: StreamCall): Promise<AsyncIterable<ContentPart>> {
  let lastError: unknown;
  for (const [index, target] of call.targets.entries()) {
    const attempt = new CallAttempt(call.signal, target.context, target.timeoutMs);
    let iterator: AsyncIterator<StreamPart> | undefined;
    let span: ChatSpan | undefined;
    try {
      const request = call.request(target, attempt.signal);
      span = ChatSpan.start(target, request, true, call.trace);
      iterator = target.languageModel().stream(request)[Symbol.asyncIterator]();
      // The first pull sends the request: with the span active, HTTP spans nest under it.
      const parts = iterator;
      const send = () => pull(parts, attempt, false);
      let next = await (span ? span.run(send) : send());
      let started = false;
      for (; ; next = await pull(iterator, attempt, started)) {
        if (next.done) {
          attempt.throwIfAborted();
          attempt.dispose();
          span?.end();
          return nothing();
        }
        const part = next.value;
        span?.part(part);
        if (part.type === 'stream-start') started = true;
        else if ((part.type === 'text-delta' && part.text !== '') || part.type === 'tool-call') {
          const firstContentAt = performance.now();
          return relay(iterator, { control: attempt, target, span, firstContentAt }, part, call);
        } else if (part.type === 'finish') call.onFinish(target, part);
      }
    } catch (error) {
      attempt.cancel();
      attempt.dispose();
      await iterator?.return?.().catch(() => undefined);
      lastError = attempt.explain(error);
      span?.fail(lastError);
      if (!canFallBack(lastError, index, call.targets.length, call.signal)) throw lastError;
    }
  }
  throw lastError;
}
