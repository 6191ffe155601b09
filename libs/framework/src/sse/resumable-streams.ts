import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import { MemoryStreamLog } from '../../../providers/src/streams/memory-stream-log.js';
import { RedisStreamLog } from '../../../providers/src/streams/redis-stream-log.js';
import type {
  StreamLog,
  StreamLogEntry,
} from '../../../providers/src/streams/stream-log.interface.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { NotFoundError } from '../http/http.errors.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { isMessageEvent, type SseMessageEvent } from './sse-event.js';

/** Seconds a resumable stream may run, and its events stay resumable after the last one. */
export const DEFAULT_RESUMABLE_TTL = 600;

/** How long a reader waits for a notice before it reads the log again anyway. */
const POLL_MS = 1000;

/** The abort reason of a producer cancelled through {@link ResumableStreams.cancel}. */
export class StreamCancelledError extends ToolkitError {
  constructor() {
    super('The stream was cancelled', { statusCode: 499 });
    this.name = 'StreamCancelledError';
  }
}

/** The abort reason of a producer that ran past its stream's time to live. */
export class StreamExpiredError extends ToolkitError {
  constructor(ttlSeconds: number) {
    super(`The stream ran longer than its ${ttlSeconds} s time to live`, { statusCode: 504 });
    this.name = 'StreamExpiredError';
  }
}

/** What the process that started a stream knows of it beyond the log. */
interface LocalStream {
  readonly controller: AbortController;
  /** The producer's own error, rethrown to the first reader when nothing was sent yet. */
  error?: unknown;
}

/** How a producer's output is recorded. */
export interface ProduceOptions {
  /** See {@link DEFAULT_RESUMABLE_TTL}. */
  ttlSeconds: number;
  /** Turns an error into the message of the stream's last `event: error`. */
  describeError: (error: unknown) => string;
  /** Told about producer failures (for logging). */
  onError?: (error: unknown) => void;
}

/**
 * The resumable streams of the application (`@Stream({ resumable: true })`). A stream's producer
 * runs to its end whether or not a client is connected (bounded by the time to live and by
 * {@link cancel}); its events go to a log in the memory backend — Redis when `memory.backend` or
 * `cache.backend` is `redis` (so any process can resume any stream), in-process otherwise. A
 * client reads the log from where it stopped: every event's `id:` is `<stream id>.<number>`, the
 * position a reconnecting client sends back as `Last-Event-ID`.
 *
 * @example
 * // A route that cancels a stream (App serves `DELETE /streams/:id` already):
 * constructor(private readonly streams: ResumableStreams) {}
 * await this.streams.cancel(id); // the producer's signal aborts, in whichever process it runs
 */
@Injectable()
export class ResumableStreams implements OnApplicationShutdown {
  private readonly logger = new Logger('toolkit:streams');
  private log?: StreamLog;
  private readonly local = new Map<string, LocalStream>();

  constructor(@Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig) {}

  /** A new stream id: 128 random bits, URL-safe. */
  static newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /** Streams whose producer runs in this process. */
  get running(): number {
    return this.local.size;
  }

  /**
   * Opens stream `id` and starts recording `chunks` into it in the background; the producer's
   * `controller` aborts on cancel, on time-to-live and at shutdown. Resolves once the stream is
   * readable.
   */
  async produce(
    id: string,
    chunks: AsyncGenerator<unknown>,
    controller: AbortController,
    options: ProduceOptions,
  ): Promise<void> {
    const log = this.backend();
    await log.create(id, options.ttlSeconds);
    const local: LocalStream = { controller };
    this.local.set(id, local);
    void this.record(log, id, chunks, local, options);
  }

  /**
   * The events of stream `id` numbered above `after`, then the rest live until the stream ends,
   * as `MessageEvent`s with their positions as ids. A failure of the producer arrives as a last
   * `event: error` — or, to a reader in the producer's process that has sent nothing yet, as the
   * producer's own error (so the response gets its real status). Ends early when `signal` aborts.
   *
   * @throws NotFoundError (404) when the stream is unknown or expired.
   */
  async *follow(id: string, after: number, signal?: AbortSignal): AsyncGenerator<SseMessageEvent> {
    const log = this.backend();
    let position = after;
    for (;;) {
      const entries = await log.read(id, position);
      if (entries === undefined) {
        if (position === after) throw new NotFoundError(`Stream ${id} is unknown or has expired`);
        return;
      }
      for (const entry of entries) {
        position += 1;
        if (entry.kind === 'end') return;
        if (entry.kind === 'error') {
          const own = this.local.get(id)?.error;
          if (position === 1 && after === 0 && own !== undefined) throw asError(own);
          // Numbered as the last event: a client reconnecting from there is told again.
          const last = position - 1;
          yield {
            id: last === 0 ? id : `${id}.${last}`,
            type: 'error',
            data: JSON.stringify({ error: entry.message }),
          };
          return;
        }
        yield {
          id: `${id}.${position}`,
          data: entry.data,
          ...(entry.type === undefined ? {} : { type: entry.type }),
          ...(entry.retry === undefined ? {} : { retry: entry.retry }),
        };
      }
      if (signal?.aborted) return;
      if (entries.length === 0) await log.wait(id, position, POLL_MS, signal);
      if (signal?.aborted) return;
    }
  }

  /**
   * Stops stream `id` wherever its producer runs: the producer's signal aborts (its upstream
   * call is cancelled) and readers get a last `event: error`. False when the stream is unknown,
   * expired or already over.
   */
  async cancel(id: string): Promise<boolean> {
    const local = this.local.get(id);
    if (local) {
      local.controller.abort(new StreamCancelledError());
      return true;
    }
    return this.backend().cancel(id);
  }

  /** Aborts the producers of this process and closes the log. */
  async onApplicationShutdown(): Promise<void> {
    for (const { controller } of this.local.values()) {
      controller.abort(new ToolkitError('The server is shutting down', { statusCode: 503 }));
    }
    await this.log?.close();
  }

  private async record(
    log: StreamLog,
    id: string,
    chunks: AsyncGenerator<unknown>,
    local: LocalStream,
    options: ProduceOptions,
  ): Promise<void> {
    const { controller } = local;
    const { ttlSeconds } = options;
    const expiry = setTimeout(
      () => controller.abort(new StreamExpiredError(ttlSeconds)),
      ttlSeconds * 1000,
    );
    expiry.unref();
    const offCancel = log.onCancel(id, () => controller.abort(new StreamCancelledError()));
    // An abort stops a producer that waits for its upstream, whatever the handler does with
    // the signal: the generator is asked to return (its `finally` runs).
    const onAbort = (): void => void chunks.return(undefined).catch(() => undefined);
    controller.signal.addEventListener('abort', onAbort, { once: true });
    let last: StreamLogEntry = { kind: 'end' };
    try {
      for await (const chunk of chunks) {
        if (controller.signal.aborted) break;
        const entry = toEntry(chunk);
        if (!entry) continue;
        const outcome = await log.append(id, entry, ttlSeconds);
        if (outcome.cancelled) controller.abort(new StreamCancelledError());
      }
      if (controller.signal.aborted) {
        last = { kind: 'error', message: options.describeError(controller.signal.reason) };
      }
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      if (!controller.signal.aborted) {
        local.error = error;
        options.onError?.(error);
      }
      last = { kind: 'error', message: options.describeError(reason) };
    } finally {
      clearTimeout(expiry);
      offCancel();
      controller.signal.removeEventListener('abort', onAbort);
    }
    await log.append(id, last, ttlSeconds).catch((error: unknown) => {
      this.logger.warn(`Could not record the end of stream ${id}: ${String(error)}`);
    });
    // The producer's error stays known briefly for a first reader that has not read yet.
    setTimeout(() => this.local.delete(id), POLL_MS * 5).unref();
    if (!controller.signal.aborted) controller.abort(new Error('The stream ended'));
  }

  private backend(): StreamLog {
    if (this.log) return this.log;
    const { memory, cache } = this.config;
    if (memory.backend === 'redis') {
      this.log = new RedisStreamLog({
        url: memory.redis_url,
        keyPrefix: `${memory.key_prefix}:stream:`,
      });
    } else if (cache.enabled && cache.backend === 'redis') {
      this.log = new RedisStreamLog({
        url: cache.redis_url,
        keyPrefix: `${cache.key_prefix}stream:`,
      });
    } else {
      this.log = new MemoryStreamLog();
    }
    return this.log;
  }
}

/** One chunk as a log entry, framed later as `SseFramer` frames it; `undefined` sends nothing. */
function toEntry(chunk: unknown): StreamLogEntry | undefined {
  if (typeof chunk === 'string') return { kind: 'event', data: chunk };
  if (Buffer.isBuffer(chunk)) return { kind: 'event', data: chunk.toString('utf8') };
  if (isMessageEvent(chunk)) {
    if (chunk.data === undefined || chunk.data === null) return undefined;
    const data = typeof chunk.data === 'string' ? chunk.data : JSON.stringify(chunk.data);
    return {
      kind: 'event',
      data,
      ...(chunk.type === undefined ? {} : { type: String(chunk.type) }),
      ...(chunk.retry === undefined ? {} : { retry: chunk.retry }),
    };
  }
  return { kind: 'event', data: JSON.stringify(chunk) ?? '' };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
