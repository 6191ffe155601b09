import type { ServerResponse } from 'node:http';
import { SseWriter } from './sse-writer.js';

/** How {@link pumpSse} reports a failure after the stream has begun. */
export interface SsePumpOptions {
  /** Silence (ms) before a `: ping` comment; also how long the first chunk may take before the headers go out. */
  heartbeatMs: number;
  /** Turns an error into the message of the closing `event: error`. */
  describeError: (error: unknown) => string;
  /** Called with errors that happen after the stream began (for logging). */
  onLateError?: (error: unknown) => void;
}

const CLOSED = Symbol('closed');

/**
 * Sends every chunk of `source` as an SSE event, flushed as produced. The headers wait for the
 * first chunk (or for `heartbeatMs`, whichever comes first), so a failure before any output is
 * rethrown and answered by the exception filter with its real status (503, 429, ...). A failure
 * after output began sends `event: error` with `{"error": ...}` and closes. If the client goes,
 * the source's `return()` is called, which runs a generator's `finally`.
 */
export async function pumpSse(
  source: AsyncIterator<unknown>,
  res: ServerResponse,
  options: SsePumpOptions,
): Promise<void> {
  const writer = new SseWriter(res, options.heartbeatMs);
  const closed = new Promise<typeof CLOSED>((resolve) => res.once('close', () => resolve(CLOSED)));
  let started = false;
  const opener =
    options.heartbeatMs > 0
      ? setTimeout(() => {
          started = true;
          void writer.comment('ping');
        }, options.heartbeatMs)
      : undefined;
  try {
    for (;;) {
      const step = writer.closed ? CLOSED : await Promise.race([closed, source.next()]);
      if (step === CLOSED) {
        writer.stopHeartbeat();
        void Promise.resolve(source.return?.()).catch(() => undefined);
        return;
      }
      if (step.done) break;
      started = true;
      clearTimeout(opener);
      await writer.send(chunkText(step.value));
    }
    clearTimeout(opener);
    writer.open();
    writer.end();
  } catch (error) {
    clearTimeout(opener);
    if (!started && !res.headersSent) throw error;
    options.onLateError?.(error);
    await writer.send(JSON.stringify({ error: options.describeError(error) }), 'error');
    writer.end();
  }
}

function chunkText(chunk: unknown): string {
  if (typeof chunk === 'string') return chunk;
  if (Buffer.isBuffer(chunk)) return chunk.toString('utf8');
  if (typeof chunk === 'object' && chunk !== null) return JSON.stringify(chunk);
  return String(chunk);
}
