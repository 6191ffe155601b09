import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ToolkitError,
  StreamLog,
  type StreamLogEntry,
  STREAM_LOG_ATTRIBUTE,
  STREAM_LOG_SPAN,
  STREAM_LOG_SPAN_OPTIONS,
  traced,
} from '../../../providers/src/internal.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { BadRequestError, NotFoundError } from '../http/http.errors.js';
import { clientAddress, type AddressedRequest } from '../rate-limit/client-address.js';
import { replaceAbortController } from '../routing/request-signal.js';
import { ClientDisconnectedError } from '../routing/request-signal.errors.js';
import { SessionPipe } from '../session/session.decorator.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { ProducerLimits } from './producer-limits.js';
import { isMessageEvent, type SseMessageEvent } from './sse-event.js';
import type { ResumableOptions } from './stream-options.js';
import { streamPosition } from './stream-position.js';
import type { ChunkSource } from './stream-source.js';
import type { StreamOverflowError } from './stream-overflow.error.js';
import { logFailure } from '../http/log-failure.js';
import { reportFailure } from '../telemetry/request-failure.js';
import { chatPointerKey, readChatPointer, writeChatPointer } from './ui-message/chat-pointer.js';
import { ChatStreamResume } from './ui-message/chat-stream-resume.js';
import { StreamCancelledError, StreamExpiredError } from './resumable-stream.errors.js';

/** Seconds a resumable stream may run, and its events stay resumable after the last one. */
export const DEFAULT_RESUMABLE_TTL = 600;

/** How long a reader waits for a notice before it reads the log again anyway. */
const POLL_MS = 1000;
/** A producer renews its lease this often; a lease lapses after {@link LEASE_MS} without one. */
const LEASE_RENEW_MS = 1000;
const LEASE_MS = 3000;
/** How long `onApplicationShutdown` waits for producers it stops to record their end. */
const SHUTDOWN_SETTLE_MS = 1000;

/** The last event of a stream whose producer's process died before the end. */
export const PRODUCER_LOST_MESSAGE =
  'The process producing this stream stopped before the end; start a new one';

/** What the process that started a stream knows of it beyond the log. */
interface LocalStream {
  readonly controller: AbortController;
  /** The producer's own error, rethrown to the first reader when nothing was sent yet. */
  error?: unknown;
  /** Settles once the producer stopped and its last entry is written. */
  done?: Promise<void>;
}

/** A request a resumable stream answers: Node's, Express's or Fastify's. */
type StreamRequest = IncomingMessage & AddressedRequest;

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
  /**
   * Turns the handler's chunks into what the log records (e.g. the `'ui-message'` format's
   * chunks as JSON); the chunks as they are without it.
   */
  encode?: (
    chunks: AsyncGenerator<unknown>,
    onOverflow: (error: StreamOverflowError) => void,
  ) => AsyncGenerator<unknown>;
  /**
   * The AI SDK chat this stream answers (the request body's `id`): the stream becomes the
   * chat's running answer, which {@link ResumableStreams.resumeChat} finds.
   */
  chatId?: string;
}

/**
 * The resumable streams of the application (`@Stream({ resumable: true })`). A stream's producer
 * runs to its end whether or not a client is connected, bounded by the time to live, by
 * {@link cancel} and by `limits.*`: at most `streams_per_session` per owner and
 * `streams_per_address` per client address at once in each process (429 past them), and
 * `detached_grace` seconds once no client (in any process) reads it; its events go to the
 * injected {@link StreamLog} — Redis when `memory.backend` or `cache.backend` is `redis` (so any
 * process can resume any stream), in-process otherwise. A client reads the log from where it stopped: every event's `id:` is `<stream id>.<number>`, the
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
  private readonly local = new Map<string, LocalStream>();
  private readonly limits: ProducerLimits;
  private readonly sessions: SessionPipe;

  constructor(
    @Inject(TOOLKIT_CONFIG) config: ToolkitConfig,
    @Inject(StreamLog) private readonly log: StreamLog,
  ) {
    this.limits = new ProducerLimits(config.limits);
    this.sessions = new SessionPipe(config);
  }

  /** A new stream id: 128 random bits, URL-safe. */
  static newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /** Streams whose producer runs in this process. */
  get running(): number {
    return this.local.size;
  }

  /** Producers of this process that no client reads (stopped after `limits.detached_grace`). */
  get detached(): number {
    return this.limits.detached;
  }

  /**
   * Refuses a new stream past `limits.streams_per_session` or `limits.streams_per_address`
   * (a resumed one always passes). Called before anything is written to the response.
   *
   * @throws TooManyStreamsError (429)
   */
  admit(req: StreamRequest, res: ServerResponse, options: ResumableOptions): void {
    if (streamPosition(req)) return;
    this.limits.admit(this.ownerOf(req, res, options), clientAddress(req));
  }

  /**
   * What one request to a resumable route streams: a new stream (its producer walks the chunks
   * `source` gives, detached from the client) or, with `Last-Event-ID`, the rest of an existing one.
   * When the log cannot be written (its backend is down) the stream is served as a plain one,
   * with a logged warning.
   *
   * @throws TooManyStreamsError (429) past `limits.streams_per_session` / `streams_per_address`.
   * @throws BadRequestError (400) for a malformed `Last-Event-ID`.
   */
  open(
    req: StreamRequest,
    res: ServerResponse,
    source: ChunkSource,
    options: OpenOptions,
  ): ResumableSource {
    const position = streamPosition(req);
    const reader = new AbortController();
    res.once('close', () => reader.abort());
    const id = position?.id ?? ResumableStreams.newId();
    const owner = this.ownerOf(req, res, options);
    const key = logKey(id, owner);
    const address = clientAddress(req);
    if (!position) this.limits.admit(owner, address);
    res.setHeader('X-Stream-Id', id);
    if (position) {
      this.watchReader(key, res);
      const rest = this.follow(key, position.after, reader.signal, id);
      return { events: answerEmptyResume(rest, res), controller: reader };
    }
    const producer = new AbortController();
    replaceAbortController(req, producer);
    this.limits.add(key, {
      owner,
      address,
      controller: producer,
      remoteReader: () => this.log.producing(readerLease(key)),
    });
    this.watchReader(key, res);
    const onOverflow = (error: StreamOverflowError): void => producer.abort(error);
    const raw = source(options.maxPendingBytes, onOverflow);
    const chunks = options.encode?.(raw, onOverflow) ?? raw;
    const ttlSeconds = options.ttl ?? DEFAULT_RESUMABLE_TTL;
    const produced = this.produce(key, chunks, producer, {
      ttlSeconds,
      describeError: options.describeError,
      onError: (error) => {
        reportFailure(error);
        logFailure(this.logger, 'A resumable stream failed', error);
      },
    });
    const { chatId } = options;
    // The chat's pointer is written once the stream is readable; a failure to write it (the log's
    // backend went down meanwhile) only means this answer cannot be resumed by its chat id.
    if (chatId !== undefined) {
      void produced.then(
        () =>
          writeChatPointer(this.log, chatPointerKey(chatId, owner), { key, id }, ttlSeconds).catch(
            (error: unknown) =>
              this.logger.warn(
                `Could not record a chat's running answer: ${options.describeError(error)}`,
              ),
          ),
        () => undefined,
      );
    }
    const opened = produced.then(
      () => true,
      (error: unknown) => {
        // A plain stream follows its client (below): the caps on detached producers do not apply.
        this.limits.remove(key);
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
   * Follows stream `id` whatever the method of the route that started it (`GET /streams/:id`):
   * from the position in `Last-Event-ID` or `?lastEventId=` (from the start without one), as a
   * reconnect to that route reads it, answered `204` when nothing is left. The stream is looked
   * for as owned by each of `owners` in turn (`undefined`: a stream with no owner).
   *
   * @throws NotFoundError (404) when no such stream is held for any of `owners`.
   * @throws BadRequestError (400) for a position that is malformed or names another stream.
   */
  async *followById(
    req: StreamRequest,
    res: ServerResponse,
    id: string,
    owners: readonly (string | undefined)[],
  ): AsyncGenerator<SseMessageEvent> {
    const position = streamPosition(req);
    if (position && position.id !== id) {
      throw new BadRequestError('Last-Event-ID must be the id of an event of this stream');
    }
    const log = this.log;
    let key: string | undefined;
    for (const owner of owners) {
      const candidate = logKey(id, owner);
      if ((await log.read(candidate, Number.MAX_SAFE_INTEGER)) !== undefined) {
        key = candidate;
        break;
      }
    }
    if (key === undefined) throw new NotFoundError(`Stream ${id} is unknown or has expired`);
    const reader = new AbortController();
    res.once('close', () => reader.abort());
    this.watchReader(key, res);
    yield* answerEmptyResume(this.follow(key, position?.after ?? 0, reader.signal, id), res);
  }

  /**
   * The running answer of AI SDK chat `chatId` (a `@Stream({ format: 'ui-message', resumable })`
   * route's stream, found by the `id` of the body it was started with), for the route
   * `useChat({ resume: true })` calls, `GET {api}/{chatId}/stream`: the answer from its start,
   * then live; `204` when the chat has nothing running (no answer yet, or it is over — it is in
   * the chat's memory then). `owner` is the route's owner of the requester (`@Session()` for
   * `owner: 'session'`): another owner's chat is never found.
   *
   * @example
   * @Route('/api/chat/:id/stream', { methods: ['GET'] })
   * @Stream({ format: 'ui-message' })
   * resume(@Arg('id') id: string, @Session() session: string) {
   *   return this.streams.resumeChat(id, session);
   * }
   */
  resumeChat(chatId: string, owner?: string): ChatStreamResume {
    return new ChatStreamResume((res) => this.replayChat(chatPointerKey(chatId, owner), res));
  }

  /**
   * Stops the running answer of AI SDK chat `chatId`, as {@link cancel} stops a stream (the
   * AI SDK's `stop()` only closes its connection, which a resumable stream outlives). False when
   * the chat has nothing running.
   */
  async cancelChat(chatId: string, owner?: string): Promise<boolean> {
    const ref = await readChatPointer(this.log, chatPointerKey(chatId, owner));
    return ref !== undefined && this.cancelKey(ref.key);
  }

  /** The events of the stream a chat's pointer names, from its start; none when it is over. */
  private async *replayChat(
    pointerKey: string,
    res: ServerResponse,
  ): AsyncGenerator<SseMessageEvent> {
    const log = this.log;
    const ref = await readChatPointer(log, pointerKey);
    if (!ref) return;
    const entries = await log.read(ref.key, 0);
    if (!entries || entries.some((entry) => entry.kind !== 'event')) return;
    const reader = new AbortController();
    res.once('close', () => reader.abort());
    this.watchReader(ref.key, res);
    yield* this.follow(ref.key, 0, reader.signal, ref.id);
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
    const log = this.log;
    await log.create(id, options.ttlSeconds);
    const local: LocalStream = { controller };
    this.local.set(id, local);
    local.done = this.record(log, id, chunks, local, options).finally(() => this.limits.remove(id));
  }

  /**
   * The events of stream `id` numbered above `after`, then the rest live until the stream ends,
   * as `MessageEvent`s with their positions as ids. A failure of the producer arrives as a last
   * `event: error` with a number of its own — or, to a reader in the producer's process that has
   * sent nothing yet, as the producer's own error (so the response gets its real status). Nothing
   * at all when `after` is at or past the stream's end (the client had everything, the error
   * included). Ends early when `signal` aborts.
   *
   * @throws NotFoundError (404) when the stream is unknown or expired.
   */
  async *follow(
    id: string,
    after: number,
    signal?: AbortSignal,
    shownId = id,
  ): AsyncGenerator<SseMessageEvent> {
    const log = this.log;
    if (after > 0 && (await this.endsBy(log, id, after))) return;
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
          // Numbered as an event: a client reconnecting from it had it, and is not told again.
          yield {
            id: `${shownId}.${position}`,
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
   * True when stream `id` has ended by entry number `after`: its last entry (an end or an error)
   * is at or before that position. False while it runs, and when it is unknown (the caller's read
   * says so).
   */
  private endsBy(log: StreamLog, id: string, after: number): Promise<boolean> {
    // A reconnect's first look at the log: its span (`toolkit.stream_log.resume`) tells whether
    // the log made the resume slow; the live reads after it are not traced (one per chunk).
    const options = STREAM_LOG_SPAN_OPTIONS[log.backend];
    return traced(STREAM_LOG_SPAN.resume, options, async (span) => {
      const from = await log.read(id, after - 1);
      if (span.recording) {
        span.setAttributes({
          [STREAM_LOG_ATTRIBUTE.position]: after,
          [STREAM_LOG_ATTRIBUTE.found]: from !== undefined,
          [STREAM_LOG_ATTRIBUTE.entries]: from?.length,
        });
      }
      if (from === undefined) return false;
      const at = from[0];
      if (at) return at.kind !== 'event';
      // Past what was written: over when the last entry of all is the end.
      const last = (await log.read(id, 0))?.at(-1);
      return last !== undefined && last.kind !== 'event';
    });
  }

  /**
   * Stops stream `id` wherever its producer runs: the producer's signal aborts (its upstream
   * call is cancelled) and readers get a last `event: error`. False when the stream is unknown,
   * expired or already over. `owner` is the route's `owner` of the requester, for owned streams.
   */
  cancel(id: string, owner?: string): Promise<boolean> {
    return this.cancelKey(logKey(id, owner));
  }

  /** Stops the stream at `key` of the log (see {@link cancel}). */
  private async cancelKey(key: string): Promise<boolean> {
    const local = this.local.get(key);
    if (local) {
      if (local.controller.signal.aborted) return false;
      local.controller.abort(new StreamCancelledError());
      return true;
    }
    return this.log.cancel(key);
  }

  /**
   * Stops the producers of this process (their signals abort with a 503 reason) and waits up to
   * `settleMs` for each to finish: its handler's `finally` blocks run — `recordTurn` stores the
   * interrupted answer — and its last entry is written. `ToolkitLifecycle` calls it before the
   * memory backend closes, so no interrupted turn is lost at shutdown. Idempotent.
   */
  async stopProducers(settleMs: number): Promise<void> {
    const running = [...this.local.values()];
    for (const { controller } of running) {
      if (!controller.signal.aborted) {
        controller.abort(new ToolkitError('The server is shutting down', { statusCode: 503 }));
      }
    }
    const timer = new AbortController();
    await Promise.race([
      Promise.allSettled(running.map((stream) => stream.done ?? Promise.resolve())),
      sleep(settleMs, undefined, { signal: timer.signal }).catch(() => undefined),
    ]);
    timer.abort();
  }

  /** Stops the producers of this process (if the lifecycle has not yet) and closes the log. */
  async onApplicationShutdown(): Promise<void> {
    await this.stopProducers(SHUTDOWN_SETTLE_MS);
    await this.log.close();
  }

  /** The owner of a stream a request starts or reads (`ResumableOptions.owner`). */
  private ownerOf(
    req: StreamRequest,
    res: ServerResponse,
    options: ResumableOptions,
  ): string | undefined {
    if (options.owner === 'session') return this.sessions.transform({ req, res });
    return options.owner?.(req);
  }

  /**
   * Counts the client of `res` as a reader of `key` until its response closes: locally when the
   * producer runs here, else as a lease in the shared log the producer's process checks.
   */
  private watchReader(key: string, res: ServerResponse): void {
    const leave = this.limits.attach(key);
    if (leave !== false) {
      if (res.closed || res.destroyed) leave();
      else res.once('close', leave);
      return;
    }
    const log = this.log;
    if (log.backend !== 'redis' || res.closed) return;
    const renew = (): void => void log.keepAlive(readerLease(key), LEASE_MS).catch(() => undefined);
    renew();
    const lease = setInterval(renew, LEASE_RENEW_MS);
    lease.unref();
    res.once('close', () => clearInterval(lease));
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
        // A chunk produced is recorded, even one that arrives after a cancel: the producer may
        // have counted it (e.g. as part of a stored answer), so readers see exactly the same.
        const entry = toEntry(chunk);
        if (entry) {
          const outcome = await log.append(id, entry, ttlSeconds);
          if (outcome.cancelled) controller.abort(new StreamCancelledError());
        }
        if (controller.signal.aborted) break;
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
      // Never the id: it is what a client presents to read the stream.
      this.logger.warn(`Could not record the end of a resumable stream: ${String(error)}`);
    });
    // The producer's error stays known briefly for a first reader that has not read yet.
    setTimeout(() => this.local.delete(id), POLL_MS * 5).unref();
    if (!controller.signal.aborted) controller.abort(new Error('The stream ended'));
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

/**
 * A resumed stream's events; when there are none (the client had them all, or the stream ended
 * with nothing after its position) the answer is `204 No Content`, which tells an `EventSource`
 * to stop reconnecting, instead of an empty `200` it would reconnect after.
 */
async function* answerEmptyResume(
  events: AsyncGenerator<SseMessageEvent>,
  res: ServerResponse,
): AsyncGenerator<SseMessageEvent> {
  let sent = false;
  for await (const event of events) {
    sent = true;
    yield event;
  }
  if (!sent && !res.headersSent && !res.destroyed) {
    res.writeHead(204);
    res.end();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The log id whose lease says a reader in some process still reads stream `key`. */
function readerLease(key: string): string {
  return `${key}#reader`;
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
