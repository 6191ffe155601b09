import type { ServerResponse } from 'node:http';
import { isObservable } from 'rxjs';
import { endFrame, formatEvent, SseFramer } from './sse-event.js';
import { SseWriter } from './sse-writer.js';
import { isAsyncIterable, observableIterator } from './stream-source.js';
import type { StreamOverflowError } from './stream-overflow.error.js';

/** How an {@link SsePump} reports and words failures. */
export interface SsePumpOptions {
  /**
   * Heartbeat period (ms): after one to two periods of silence a `: ping` comment goes out (with
   * the headers, when the first chunk is that slow). 0 disables it.
   */
  heartbeatMs: number;
  /** Bound on an Observable's unread output (see `StreamOptions.maxPendingBytes`). */
  maxPendingBytes: number;
  /** Told when an Observable overruns that bound (the interceptor aborts the request with it). */
  onOverflow: (error: StreamOverflowError) => void;
  /** Turns an error into the message of the closing `event: error`. */
  describeError: (error: unknown) => string;
  /** Called with errors that happen after the stream began (for logging). */
  onLateError?: (error: unknown) => void;
  /** Frames one chunk, in place of the default framing (e.g. the `'ui-message'` format). */
  frame?: (chunk: unknown) => string;
  /** Frames the closing failure message, in place of `event: error` with `{"error": ...}`. */
  errorFrame?: (message: string) => string;
  /**
   * Closes a stream that ended — cleanly or with its closing `event: error` — with the id-only
   * frame of {@link endFrame}, so an `EventSource` does not run the route again when it
   * reconnects. Not when the client went, nor when {@link SsePump.stop} ended it (shutdown).
   */
  endMarker?: boolean;
}

/**
 * Sends every chunk a streaming handler produced as an SSE event, flushed in the turn of the
 * event loop that produced it (see {@link SseWriter.write}).
 * `emissions` is what the handler's Observable emitted: async iterables (generators, SDK
 * streams) and Observables among them are walked chunk by chunk, other values are one chunk each.
 * A chunk is read only once the client took the previous one, so a generator is paused by a slow
 * client instead of filling memory.
 *
 * The headers wait for the first chunk (or for the first heartbeat ping), so a
 * failure before any output is rethrown and answered by the exception filter with its real
 * status (503, 429, ...). A failure after output began sends `event: error` with
 * `{"error": ...}` and closes. If the client goes, or {@link stop} is called, `return()` is called
 * on what is being walked, which runs a generator's `finally` (at once when it waits at a
 * `yield`, else at its next one).
 */
export class SsePump {
  private readonly writer: SseWriter;
  private readonly framer = new SseFramer();
  private current?: AsyncIterator<unknown>;
  /** The client went or the server stopped the stream: nothing more is read or written. */
  private halted = false;
  /** {@link run} has returned. */
  private finished = false;
  /** Chunks written (the end marker tells how many). */
  private sent = 0;

  constructor(
    private readonly emissions: AsyncIterator<unknown>,
    private readonly res: ServerResponse,
    private readonly options: SsePumpOptions,
  ) {
    this.writer = new SseWriter(res, options.heartbeatMs);
  }

  /** Streams until the source ends, fails, the client goes or {@link stop} is called. */
  async run(): Promise<void> {
    const onClose = (): void => {
      this.writer.gone();
      this.halt();
    };
    this.res.on('close', onClose); // removed in `finally`
    // Also what sends the headers (with a ping) if the first chunk is slow to come.
    this.writer.startHeartbeat();
    try {
      await this.walk();
      if (!this.halted) this.end();
    } catch (error) {
      if (this.halted) return;
      if (!this.writer.started && !this.res.headersSent) throw error;
      this.options.onLateError?.(error);
      await this.writer.write(this.errorFrame(this.options.describeError(error)));
      this.end();
    } finally {
      this.writer.stopHeartbeat();
      this.res.off('close', onClose);
      this.finished = true;
    }
  }

  /**
   * Ends the stream from the server's side: a last `event: error` carrying `message`, then the end
   * of the response; the producer is asked to stop (a generator's `finally` runs).
   */
  stop(message: string): void {
    this.close(message, false);
  }

  /**
   * Ends the stream because it failed while the pump may be waiting for a slow client: logs it,
   * sends a last `event: error` and ends, as a failure from the producer would.
   */
  fail(error: unknown): void {
    if (this.finished || this.halted) return;
    this.options.onLateError?.(error);
    this.close(this.options.describeError(error), true);
  }

  /** A last `event: error`, the end marker when `final` (see `endMarker`), the end; stops the producer. */
  private close(message: string, final: boolean): void {
    if (this.finished || this.halted) return;
    void this.writer.write(this.errorFrame(message));
    if (final) this.end();
    else this.writer.end();
    this.halt();
  }

  /** Ends the response, after the end marker when the options ask for it. */
  private end(): void {
    if (this.options.endMarker) void this.writer.write(endFrame(this.sent));
    this.writer.end();
  }

  private async walk(): Promise<void> {
    for (;;) {
      const outer = await this.emissions.next();
      if (this.halted) return;
      if (outer.done) return;
      const inner = walkableOf(outer.value, this.options);
      if (!inner) {
        const pending = this.emit(outer.value);
        if (pending) await pending;
        continue;
      }
      this.current = inner;
      for (;;) {
        const step = await inner.next();
        if (this.halted) return;
        if (step.done) break;
        const pending = this.emit(step.value);
        if (pending) await pending;
      }
      this.current = undefined;
    }
  }

  /** Writes one chunk; a promise only when the client is behind. */
  private emit(chunk: unknown): Promise<void> | undefined {
    this.sent += 1;
    return this.writer.write(this.options.frame?.(chunk) ?? this.framer.frame(chunk));
  }

  private errorFrame(message: string): string {
    return (this.options.errorFrame ?? errorFrame)(message);
  }

  /** The client is gone or the server stops the stream: stop the producer, once. */
  private halt(): void {
    if (this.halted) return;
    this.halted = true;
    this.writer.detach();
    stop(this.current);
    stop(this.emissions);
  }
}

function errorFrame(message: string): string {
  return formatEvent(JSON.stringify({ error: message }), 'error');
}

function walkableOf(value: unknown, options: SsePumpOptions): AsyncIterator<unknown> | undefined {
  if (isAsyncIterable(value)) return value[Symbol.asyncIterator]();
  if (isObservable(value)) {
    return observableIterator(value, options.maxPendingBytes, options.onOverflow);
  }
  return undefined;
}

/** Asks an iterator to finish (a generator runs its `finally`); its outcome no longer matters. */
function stop(iterator: AsyncIterator<unknown> | undefined): void {
  if (!iterator?.return) return;
  Promise.resolve(iterator.return()).catch(() => undefined);
}
