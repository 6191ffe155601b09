import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import { MemoryStreamLog } from '../../../providers/src/streams/memory-stream-log.js';
import { RedisStreamLog } from '../../../providers/src/streams/redis-stream-log.js';
import type {
  StreamLog,
  StreamLogEntry,
} from '../../../providers/src/streams/stream-log.interface.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { NotFoundError } from '../http/http.errors.js';
import { ClientDisconnectedError, replaceAbortController } from '../routing/request-signal.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { isMessageEvent, type SseMessageEvent } from './sse-event.js';
import type { ResumableOptions } from './stream-options.js';
import { streamPosition } from './stream-position.js';
import { streamChunks } from './stream-source.js';

/** Seconds a resumable stream may run, and its events stay resumable after the last one. */
export const DEFAULT_RESUMABLE_TTL = 600;

/** How long a reader waits for a notice before it reads the log again anyway. */
const POLL_MS = 1000;
/** A producer renews its lease this often; a lease lapses after {@link LEASE_MS} without one. */
const LEASE_RENEW_MS = 1000;
const LEASE_MS = 3000;

/** The last event of a stream whose producer's process died before the end. */
export const PRODUCER_LOST_MESSAGE =
  'The process producing this stream stopped before the end; start a new one';

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

/** What a resumable route sends its client, and the controller that ends that reading. */
export interface ResumableSource {
  readonly events: AsyncIterator<unknown>;
  readonly controller: AbortController;
}

/** How {@link ResumableStreams.open} runs one request. */
export interface OpenOptions extends ResumableOptions {
  /** Bound on an Observable's unread output (see `StreamOptions.maxPendingBytes`). */
  maxPendingBytes: number;
  /** Turns an error into the message of the stream's last `event: error`. */
  describeError: (error: unknown) => string;
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
   * What one request to a resumable route streams: a new stream (its producer started from
   * `output$`, detached from the client) or, with `Last-Event-ID`, the rest of an existing one.
   * When the log cannot be written (its backend is down) the stream is served as a plain one,
   * with a logged warning.
   *
   * @throws BadRequestError (400) for a malformed `Last-Event-ID`.
   */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    output$: Observable<unknown>,
    options: OpenOptions,
  ): ResumableSource {
    const position = streamPosition(req);
    const reader = new AbortController();
    res.once('close', () => reader.abort());
    const id = position?.id ?? ResumableStreams.newId();
    const key = logKey(id, options.owner?.(req));
    res.setHeader('X-Stream-Id', id);
    if (position) {
      return { events: this.follow(key, position.after, reader.signal, id), controller: reader };
    }
    const producer = new AbortController();
    replaceAbortController(req, producer);
    const chunks = streamChunks(output$, options.maxPendingBytes, (error) => producer.abort(error));
    const opened = this.produce(key, chunks, producer, {
      ttlSeconds: options.ttl ?? DEFAULT_RESUMABLE_TTL,
      describeError: options.describeError,
      onError: (error) => this.logger.error(`Resumable stream ${id} failed`, error),
    }).then(
      () => true,
      (error: unknown) => {
        this.logger.warn(
          `Streaming without resumption: the stream log is unavailable (${options.describeError(error)})`,
        );
        return false;
      },
    );
    const follow = (): AsyncGenerator<SseMessageEvent> => this.follow(key, 0, reader.signal, id);
    async function* events(): AsyncGenerator<unknown> {
      if (await opened) {
        yield* follow();
        return;
      }
      // A plain stream: the producer follows its client again.
      res.removeHeader('X-Stream-Id');
      res.once('close', () => {
        if (!res.writableFinished) producer.abort(new ClientDisconnectedError());
      });
      yield* chunks;
    }
    return { events: events(), controller: reader };
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
  async *follow(
    id: string,
    after: number,
    signal?: AbortSignal,
    shownId = id,
  ): AsyncGenerator<SseMessageEvent> {
    const log = this.backend();
    let position = after;
    let idle = 0;
    for (;;) {
      const entries = await log.read(id, position);
      if (entries === undefined) {
        if (position === after) {
          throw new NotFoundError(`Stream ${shownId} is unknown or has expired`);
        }
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
            id: last === 0 ? shownId : `${shownId}.${last}`,
            type: 'error',
            data: JSON.stringify({ error: entry.message }),
          };
          return;
        }
        yield {
          id: `${shownId}.${position}`,
          data: entry.data,
          ...(entry.type === undefined ? {} : { type: entry.type }),
          ...(entry.retry === undefined ? {} : { retry: entry.retry }),
        };
      }
      if (signal?.aborted) return;
      if (entries.length === 0) {
        await log.wait(id, position, POLL_MS, signal);
        if (signal?.aborted) return;
        idle += 1;
        // Every few quiet polls: is anyone still producing? (A dead process renews nothing.)
        if (idle % 2 === 0 && !(await log.producing(id))) {
          const rest = await log.read(id, position);
          if (rest && rest.length > 0) continue;
          yield lostEvent(shownId, position);
          return;
        }
      } else idle = 0;
    }
  }

  /**
   * Stops stream `id` wherever its producer runs: the producer's signal aborts (its upstream
   * call is cancelled) and readers get a last `event: error`. False when the stream is unknown,
   * expired or already over. `owner` is the route's `owner` of the requester, for owned streams.
   */
  async cancel(id: string, owner?: string): Promise<boolean> {
    const key = logKey(id, owner);
    const local = this.local.get(key);
    if (local) {
      if (local.controller.signal.aborted) return false;
      local.controller.abort(new StreamCancelledError());
      return true;
    }
    return this.backend().cancel(key);
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
    const renew = (): void => void log.keepAlive(id, LEASE_MS).catch(() => undefined);
    renew();
    const lease = setInterval(renew, LEASE_RENEW_MS);
    lease.unref();
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
      clearInterval(lease);
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

/**
 * Where a stream lives in the log: its id, or — for a route with an `owner` — a digest of owner
 * and id, so another owner presenting the same id finds nothing (404).
 */
function logKey(id: string, owner: string | undefined): string {
  if (owner === undefined) return id;
  return createHash('sha256').update(`${owner}\u0000${id}`).digest('base64url');
}

/** The last event a reader gets when the producer's process died mid-stream. */
function lostEvent(shownId: string, position: number): SseMessageEvent {
  return {
    id: position === 0 ? shownId : `${shownId}.${position}`,
    type: 'error',
    data: JSON.stringify({ error: PRODUCER_LOST_MESSAGE }),
  };
}
