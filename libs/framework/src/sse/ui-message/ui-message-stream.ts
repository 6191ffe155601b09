import type { ServerResponse } from 'node:http';
import { isObservable } from 'rxjs';
import { isAsyncIterable, observableIterator } from '../stream-source.js';
import type { StreamOverflowError } from '../stream-overflow.error.js';
import {
  UI_MESSAGE_STREAM_DONE,
  UI_MESSAGE_STREAM_HEADER,
  UI_MESSAGE_STREAM_VERSION,
} from './ui-message-chunk.js';
import { UiMessageEncoder } from './ui-message-encoder.js';
import { ChatStreamResume } from './chat-stream-resume.js';
import { replayUiMessageChunks } from './ui-message-replay.js';

/** How a stream walks and frames its chunks in the `'ui-message'` format. */
export interface UiMessageStreamFormat {
  /** The handler's emissions as UI message chunks, `start` first and the done marker last. */
  emissions: AsyncIterator<unknown>;
  /** Frames one chunk: `data: <json>`, or `data: [DONE]`. */
  frame: (chunk: unknown) => string;
  /** Frames the failure of a stream that began: an `error` chunk, then `data: [DONE]`. */
  errorFrame: (message: string) => string;
}

/**
 * Prepares a `format: 'ui-message'` stream: marks the response with the AI SDK's
 * `x-vercel-ai-ui-message-stream: v1` header and turns the handler's emissions into the
 * protocol's chunks (see {@link UiMessageEncoder}), framed as the AI SDK frames them.
 */
export function uiMessageStream(
  res: ServerResponse,
  emissions: AsyncIterator<unknown>,
  maxPendingBytes: number,
  onOverflow: (error: StreamOverflowError) => void,
): UiMessageStreamFormat {
  if (!res.headersSent) res.setHeader(UI_MESSAGE_STREAM_HEADER, UI_MESSAGE_STREAM_VERSION);
  return {
    emissions: new UiMessageChunks(emissions, maxPendingBytes, onOverflow, res),
    frame: frameUiMessageChunk,
    errorFrame: uiMessageErrorFrame,
  };
}

/**
 * Prepares a resumable `format: 'ui-message'` stream, whose `events` come from its log (each
 * one a chunk recorded as JSON): the chunks, then `data: [DONE]`; nothing when the log had
 * nothing left (the resume answers `204`).
 */
export function uiMessageReplay(
  res: ServerResponse,
  events: AsyncIterator<unknown>,
): UiMessageStreamFormat {
  const iterable: AsyncIterable<unknown> = { [Symbol.asyncIterator]: () => events };
  return {
    emissions: replayUiMessageChunks(res, iterable),
    frame: frameUiMessageChunk,
    errorFrame: uiMessageErrorFrame,
  };
}

/**
 * A handler's chunks as a resumable `'ui-message'` stream's producer records them: each UI
 * message chunk as JSON, `start` first and `finish` last (the closing `[DONE]` is not recorded:
 * readers add it once the log ends).
 */
export async function* recordedUiMessages(
  chunks: AsyncIterator<unknown>,
  maxPendingBytes: number,
  onOverflow: (error: StreamOverflowError) => void,
): AsyncGenerator<string> {
  const encoded = new UiMessageChunks(chunks, maxPendingBytes, onOverflow);
  try {
    for (;;) {
      const step = await encoded.next();
      if (step.done) return;
      if (step.value !== UI_MESSAGE_STREAM_DONE) yield JSON.stringify(step.value);
    }
  } finally {
    await encoded.return();
  }
}

/** The failure of a stream that began: an `error` chunk, then `data: [DONE]`. */
function uiMessageErrorFrame(message: string): string {
  return (
    frameUiMessageChunk({ type: 'error', errorText: message }) +
    frameUiMessageChunk(UI_MESSAGE_STREAM_DONE)
  );
}

/** One SSE event of the protocol: `data: <json>` (JSON has no raw line break), or the end. */
export function frameUiMessageChunk(chunk: unknown): string {
  if (chunk === UI_MESSAGE_STREAM_DONE) return 'data: [DONE]\n\n';
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * Walks a handler's emissions — each one a value, an async iterable or an Observable, as the
 * pump walks them — and yields the UI message chunks they stand for. Nothing is yielded before
 * the handler's first value, so a failure to start still reaches the exception filter with its
 * status. `return()` stops what is being walked at once (a generator's `finally` runs).
 *
 * A {@link ChatStreamResume} the handler returned (with `res`, the response being answered) is
 * replayed as it was recorded, chunks unchanged; with nothing to replay the response is `204`.
 */
class UiMessageChunks implements AsyncIterator<unknown> {
  private readonly encoder = new UiMessageEncoder();
  private readonly queue: unknown[] = [];
  private inner?: AsyncIterator<unknown>;
  private ended = false;
  private yielded = false;
  /** The handler returned a {@link ChatStreamResume}: its chunks pass as they were recorded. */
  private replaying = false;

  constructor(
    private readonly outer: AsyncIterator<unknown>,
    private readonly maxPendingBytes: number,
    private readonly onOverflow: (error: StreamOverflowError) => void,
    private readonly res?: ServerResponse,
  ) {}

  async next(): Promise<IteratorResult<unknown>> {
    while (this.queue.length === 0) {
      if (this.ended) return { done: true, value: undefined };
      let value: IteratorResult<unknown>;
      try {
        value = await this.nextValue();
      } catch (error) {
        // A failure before any chunk is answered by the exception filter, not as a stream.
        if (!this.yielded && this.res && !this.res.headersSent) {
          this.res.removeHeader(UI_MESSAGE_STREAM_HEADER);
        }
        throw error;
      }
      if (value.done) {
        this.ended = true;
        if (this.replaying) this.answerEmptyReplay();
        else this.queue.push(...this.encoder.end(), UI_MESSAGE_STREAM_DONE);
      } else if (this.replaying) {
        this.queue.push(value.value);
      } else {
        this.queue.push(...this.encoder.encode(value.value));
      }
    }
    this.yielded = true;
    return { done: false, value: this.queue.shift() };
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.ended = true;
    this.queue.length = 0;
    await Promise.allSettled([this.inner?.return?.(), this.outer.return?.()]);
    return { done: true, value: undefined };
  }

  /** A replay with nothing to send: `204 No Content`, which the AI SDK reads as nothing to resume. */
  private answerEmptyReplay(): void {
    const res = this.res;
    if (this.yielded || !res || res.headersSent || res.destroyed) return;
    res.removeHeader(UI_MESSAGE_STREAM_HEADER);
    res.writeHead(204);
    res.end();
  }

  /** The next value of the handler, flattening the iterables and Observables it emitted. */
  private async nextValue(): Promise<IteratorResult<unknown>> {
    for (;;) {
      if (this.inner) {
        const step = await this.inner.next();
        if (!step.done) return step;
        this.inner = undefined;
      }
      const step = await this.outer.next();
      if (step.done) return step;
      const value: unknown = step.value;
      if (value instanceof ChatStreamResume && this.res && !this.yielded) {
        this.replaying = true;
        this.inner = replayUiMessageChunks(this.res, value.open(this.res));
      } else if (isAsyncIterable(value)) this.inner = value[Symbol.asyncIterator]();
      else if (isObservable(value)) {
        this.inner = observableIterator(value, this.maxPendingBytes, this.onOverflow);
      } else return step;
    }
  }
}
