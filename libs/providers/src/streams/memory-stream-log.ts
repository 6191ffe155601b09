import type { AppendOutcome, StreamLog, StreamLogEntry } from './stream-log.interface.js';
import {
  STREAM_LOG_ATTRIBUTE,
  STREAM_LOG_SPAN,
  STREAM_LOG_SPAN_OPTIONS,
} from './stream-log-spans.js';
import { traced } from '../telemetry/tracing.js';

interface Held {
  entries: StreamLogEntry[];
  cancelled: boolean;
  expiry: NodeJS.Timeout;
}

/**
 * Resumable-stream log inside this process (when neither memory nor cache uses Redis): a stream
 * can be resumed by a client reconnecting to this same process. Each stream is dropped
 * `ttlSeconds` after its last append, so an idle process holds nothing. `create` and `cancel`
 * are `toolkit.stream_log.*` spans while tracing is on (appends, one per chunk, are not).
 *
 * @example
 * const log = new MemoryStreamLog();
 * await log.create('s1', 60);
 * await log.append('s1', { kind: 'event', data: 'hi' }, 60);
 * await log.read('s1', 0); // [{ kind: 'event', data: 'hi' }]
 */
export class MemoryStreamLog implements StreamLog {
  readonly backend = 'memory' as const;
  private readonly streams = new Map<string, Held>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly cancelListeners = new Map<string, Set<() => void>>();

  /** Streams held right now. */
  get size(): number {
    return this.streams.size;
  }

  create(id: string, ttlSeconds: number): Promise<void> {
    return traced(STREAM_LOG_SPAN.create, STREAM_LOG_SPAN_OPTIONS.memory, () => {
      const held: Held = { entries: [], cancelled: false, expiry: this.expire(id, ttlSeconds) };
      this.streams.set(id, held);
      return Promise.resolve();
    });
  }

  append(id: string, entry: StreamLogEntry, ttlSeconds: number): Promise<AppendOutcome> {
    const held = this.streams.get(id);
    if (!held) return Promise.resolve({ cancelled: true });
    held.entries.push(entry);
    clearTimeout(held.expiry);
    held.expiry = this.expire(id, ttlSeconds);
    this.wake(id);
    return Promise.resolve({ cancelled: held.cancelled });
  }

  read(id: string, after: number): Promise<StreamLogEntry[] | undefined> {
    return Promise.resolve(this.streams.get(id)?.entries.slice(after));
  }

  wait(id: string, after: number, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    const held = this.streams.get(id);
    if (!held || held.entries.length > after) return Promise.resolve();
    return waitFor(this.waiters, id, maxWaitMs, signal);
  }

  /** The writer is this process: alive as long as the stream is held. */
  keepAlive(): Promise<void> {
    return Promise.resolve();
  }

  producing(id: string): Promise<boolean> {
    return Promise.resolve(this.streams.has(id));
  }

  cancel(id: string): Promise<boolean> {
    return traced(STREAM_LOG_SPAN.cancel, STREAM_LOG_SPAN_OPTIONS.memory, (span) => {
      const held = this.streams.get(id);
      if (span.recording) span.setAttributes({ [STREAM_LOG_ATTRIBUTE.found]: held !== undefined });
      if (!held) return Promise.resolve(false);
      held.cancelled = true;
      for (const listener of this.cancelListeners.get(id) ?? []) listener();
      this.wake(id);
      return Promise.resolve(true);
    });
  }

  onCancel(id: string, listener: () => void): () => void {
    return listen(this.cancelListeners, id, listener);
  }

  close(): Promise<void> {
    for (const held of this.streams.values()) clearTimeout(held.expiry);
    this.streams.clear();
    for (const id of [...this.waiters.keys()]) this.wake(id);
    return Promise.resolve();
  }

  private expire(id: string, ttlSeconds: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.streams.delete(id);
      this.wake(id);
    }, ttlSeconds * 1000);
    timer.unref();
    return timer;
  }

  private wake(id: string): void {
    const waiting = this.waiters.get(id);
    if (!waiting) return;
    this.waiters.delete(id);
    for (const resolve of waiting) resolve();
  }
}

/** Adds `listener` to the set kept for `id` in `registry`; returns its removal. */
export function listen(
  registry: Map<string, Set<() => void>>,
  id: string,
  listener: () => void,
): () => void {
  let listeners = registry.get(id);
  if (!listeners) registry.set(id, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && registry.get(id) === listeners) registry.delete(id);
  };
}

/**
 * A wait registered under `id` in `registry`: resolves when woken (the registry's set for `id`
 * is called), after `maxWaitMs`, or when `signal` aborts.
 */
export function waitFor(
  registry: Map<string, Set<() => void>>,
  id: string,
  maxWaitMs: number,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      remove();
      resolve();
    };
    const timer = setTimeout(done, maxWaitMs);
    const remove = listen(registry, id, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
