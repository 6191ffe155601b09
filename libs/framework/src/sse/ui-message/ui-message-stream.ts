import type { ServerResponse } from 'node:http';
import { isObservable } from 'rxjs';
import { isAsyncIterable, observableIterator, type StreamOverflowError } from '../stream-source.js';
import {
  UI_MESSAGE_STREAM_DONE,
  UI_MESSAGE_STREAM_HEADER,
  UI_MESSAGE_STREAM_VERSION,
} from './ui-message-chunk.js';
import { UiMessageEncoder } from './ui-message-encoder.js';

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
    emissions: new UiMessageChunks(emissions, maxPendingBytes, onOverflow, () => {
      // A failure before any chunk is answered by the exception filter, not as a stream.
      if (!res.headersSent) res.removeHeader(UI_MESSAGE_STREAM_HEADER);
    }),
    frame: frameUiMessageChunk,
    errorFrame: (message) =>
      frameUiMessageChunk({ type: 'error', errorText: message }) +
      frameUiMessageChunk(UI_MESSAGE_STREAM_DONE),
  };
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
 */
class UiMessageChunks implements AsyncIterator<unknown> {
  private readonly encoder = new UiMessageEncoder();
  private readonly queue: unknown[] = [];
  private inner?: AsyncIterator<unknown>;
  private ended = false;
  private yielded = false;

  constructor(
    private readonly outer: AsyncIterator<unknown>,
    private readonly maxPendingBytes: number,
    private readonly onOverflow: (error: StreamOverflowError) => void,
    private readonly onEarlyFailure: () => void,
  ) {}

  async next(): Promise<IteratorResult<unknown>> {
    while (this.queue.length === 0) {
      if (this.ended) return { done: true, value: undefined };
      let value: IteratorResult<unknown>;
      try {
        value = await this.nextValue();
      } catch (error) {
        if (!this.yielded) this.onEarlyFailure();
        throw error;
      }
      if (value.done) {
        this.ended = true;
        this.queue.push(...this.encoder.end(), UI_MESSAGE_STREAM_DONE);
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
      if (isAsyncIterable(value)) this.inner = value[Symbol.asyncIterator]();
      else if (isObservable(value)) {
        this.inner = observableIterator(value, this.maxPendingBytes, this.onOverflow);
      } else return step;
    }
  }
}
