import type { ServerResponse } from 'node:http';
import { isObservable } from 'rxjs';
import { SseWriter } from './sse-writer.js';
import { isAsyncIterable, observableIterator } from './stream-source.js';

/** How {@link pumpSse} reports a failure after the stream has begun. */
export interface SsePumpOptions {
  /** Silence (ms) before a `: ping` comment; also how long the first chunk may take before the headers go out. */
  heartbeatMs: number;
  /** Turns an error into the message of the closing `event: error`. */
  describeError: (error: unknown) => string;
  /** Called with errors that happen after the stream began (for logging). */
  onLateError?: (error: unknown) => void;
}

type Walkable = AsyncIterator<unknown>;

/**
 * Sends every chunk a streaming handler produced as an SSE event, flushed as produced.
 * `emissions` is what the handler's Observable emitted: async iterables (generators, SDK
 * streams) and Observables among them are walked chunk by chunk, other values are one chunk each.
 *
 * The headers wait for the first chunk (or for `heartbeatMs`, whichever comes first), so a
 * failure before any output is rethrown and answered by the exception filter with its real
 * status (503, 429, ...). A failure after output began sends `event: error` with
 * `{"error": ...}` and closes. If the client goes, `return()` is called on what is being walked,
 * which runs a generator's `finally` (at once when it waits at a `yield`, else at its next one).
 */
export async function pumpSse(
  emissions: Walkable,
  res: ServerResponse,
  options: SsePumpOptions,
): Promise<void> {
  const writer = new SseWriter(res, options.heartbeatMs);
  let current: Walkable | undefined;
  let gone = false;
  const onClose = (): void => {
    gone = true;
    writer.stopHeartbeat();
    stop(current);
    stop(emissions);
  };
  res.once('close', onClose);
  let started = false;
  const opener =
    options.heartbeatMs > 0
      ? setTimeout(() => {
          started = true;
          void writer.comment('ping');
        }, options.heartbeatMs)
      : undefined;
  // One event per chunk; awaits only when the client is behind, so memory stays bounded.
  const emit = (chunk: unknown): Promise<void> | undefined => {
    if (!started) {
      started = true;
      clearTimeout(opener);
    }
    return writer.sendNow(chunkText(chunk));
  };
  try {
    for (;;) {
      const outer = await emissions.next();
      if (gone) return;
      if (outer.done) break;
      const inner = walkableOf(outer.value);
      if (!inner) {
        const pending = emit(outer.value);
        if (pending) await pending;
        continue;
      }
      current = inner;
      for (;;) {
        const step = await inner.next();
        if (gone) return;
        if (step.done) break;
        const pending = emit(step.value);
        if (pending) await pending;
      }
      current = undefined;
    }
    clearTimeout(opener);
    res.off('close', onClose);
    writer.open();
    writer.end();
  } catch (error) {
    clearTimeout(opener);
    res.off('close', onClose);
    if (gone) return;
    if (!started && !res.headersSent) throw error;
    options.onLateError?.(error);
    await writer.send(JSON.stringify({ error: options.describeError(error) }), 'error');
    writer.end();
  }
}

function walkableOf(value: unknown): Walkable | undefined {
  if (isAsyncIterable(value)) return value[Symbol.asyncIterator]();
  if (isObservable(value)) return observableIterator(value);
  return undefined;
}

/** Asks an iterator to finish (a generator runs its `finally`); its outcome no longer matters. */
function stop(iterator: Walkable | undefined): void {
  if (!iterator?.return) return;
  Promise.resolve(iterator.return()).catch(() => undefined);
}

function chunkText(chunk: unknown): string {
  if (typeof chunk === 'string') return chunk;
  if (Buffer.isBuffer(chunk)) return chunk.toString('utf8');
  if (typeof chunk === 'object' && chunk !== null) return JSON.stringify(chunk);
  return String(chunk);
}
