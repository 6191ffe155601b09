import type { Redis } from 'ioredis';
import { ServiceUnavailableError } from '../errors/service-unavailable.error.js';
import { loadIoredis } from '../backends/backend-clients.js';
import { RedisConnection } from '../backends/redis-connection.js';
import { listen, waitFor } from './memory-stream-log.js';
import type { AppendOutcome, StreamLog, StreamLogEntry } from './stream-log.interface.js';
import {
  STREAM_LOG_ATTRIBUTE,
  STREAM_LOG_SPAN,
  STREAM_LOG_SPAN_OPTIONS,
} from './stream-log-spans.js';
import { traced } from '../telemetry/tracing.js';

/** Options of {@link RedisStreamLog}. */
export interface RedisStreamLogOptions {
  /** Redis URL. */
  url: string;
  /** Prefix of every key and of the notification channel. @default 'toolkit:stream:' */
  keyPrefix?: string;
}

/** The entry a stream's list starts with, so an empty stream exists (LRANGE cannot tell). */
const OPENED = JSON.stringify({ kind: 'opened' });

/**
 * Resumable-stream log in Redis, shared by every process on the same server: a stream started
 * by one process can be resumed through any other. Each stream is a list (`<prefix><id>`, first
 * element a marker, then one JSON entry per event) that expires `ttlSeconds` after its last
 * append; a cancel sets `<prefix><id>:cancel`. Appends and cancels are announced on the channel
 * `<prefix>events`, so readers wake at once; a reader that missed a notice (the subscriber was
 * reconnecting) reads again after its `maxWaitMs` anyway. `create` and `cancel` are
 * `toolkit.stream_log.*` spans while tracing is on, the parents of the Redis client's own.
 *
 * @example
 * const log = new RedisStreamLog({ url: 'redis://127.0.0.1:6379' });
 * await log.create('s1', 600);
 */
export class RedisStreamLog implements StreamLog {
  readonly backend = 'redis' as const;
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly channel: string;
  private subscriber?: Redis;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly cancelListeners = new Map<string, Set<() => void>>();

  constructor(private readonly options: RedisStreamLogOptions) {
    this.connection = new RedisConnection(
      options.url,
      (detail, cause) =>
        new ServiceUnavailableError(
          `Stream log unavailable: redis ${detail}`,
          cause,
          'The Redis stream log is unavailable',
        ),
    );
    this.prefix = options.keyPrefix ?? 'toolkit:stream:';
    this.channel = `${this.prefix}events`;
  }

  create(id: string, ttlSeconds: number): Promise<void> {
    return traced(STREAM_LOG_SPAN.create, STREAM_LOG_SPAN_OPTIONS.redis, async () => {
      this.subscribe();
      const key = this.prefix + id;
      await this.connection.run((redis) =>
        redis.multi().del(key).rpush(key, OPENED).pexpire(key, ms(ttlSeconds)).exec(),
      );
    });
  }

  async append(id: string, entry: StreamLogEntry, ttlSeconds: number): Promise<AppendOutcome> {
    const key = this.prefix + id;
    const results = await this.connection.run((redis) =>
      redis
        .multi()
        .rpush(key, JSON.stringify(entry))
        .pexpire(key, ms(ttlSeconds))
        .exists(`${key}:cancel`)
        .publish(this.channel, `e:${id}`)
        .exec(),
    );
    const cancelled = results?.[2]?.[1];
    return { cancelled: cancelled === 1 };
  }

  async read(id: string, after: number): Promise<StreamLogEntry[] | undefined> {
    const key = this.prefix + id;
    const [range, exists] = await this.connection.run(async (redis) => {
      const results = await redis
        .multi()
        .lrange(key, after + 1, -1)
        .exists(key)
        .exec();
      return [results?.[0]?.[1] as string[] | undefined, results?.[1]?.[1] as number | undefined];
    });
    if (exists !== 1) return undefined;
    return (range ?? []).map((text) => JSON.parse(text) as StreamLogEntry);
  }

  async wait(id: string, after: number, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    this.subscribe();
    const woken = waitFor(this.waiters, id, maxWaitMs, signal);
    // Entries appended between the reader's last read and this wait sent their notice before
    // anyone listened: the length tells (the marker makes it one more than the count).
    const length = await this.connection.run((redis) => redis.llen(this.prefix + id));
    if (length > after + 1) this.notify(this.waiters, id);
    await woken;
  }

  async keepAlive(id: string, leaseMs: number): Promise<void> {
    await this.connection.run((redis) =>
      redis.set(`${this.prefix}${id}:alive`, '1', 'PX', leaseMs),
    );
  }

  async producing(id: string): Promise<boolean> {
    const alive = await this.connection.run((redis) => redis.exists(`${this.prefix}${id}:alive`));
    return alive === 1;
  }

  cancel(id: string): Promise<boolean> {
    return traced(STREAM_LOG_SPAN.cancel, STREAM_LOG_SPAN_OPTIONS.redis, async (span) => {
      const key = this.prefix + id;
      const found = await this.connection.run(async (redis) => {
        const ttl = await redis.pttl(key);
        if (ttl <= 0) return false;
        await redis
          .multi()
          .set(`${key}:cancel`, '1', 'PX', ttl)
          .publish(this.channel, `c:${id}`)
          .exec();
        return true;
      });
      if (span.recording) span.setAttributes({ [STREAM_LOG_ATTRIBUTE.found]: found });
      return found;
    });
  }

  onCancel(id: string, listener: () => void): () => void {
    this.subscribe();
    return listen(this.cancelListeners, id, listener);
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.subscriber = undefined;
    for (const id of [...this.waiters.keys()]) this.notify(this.waiters, id);
    await this.connection.close();
  }

  /** One subscriber connection per log, opened on first need; it reconnects by itself. */
  private subscribe(): void {
    if (this.subscriber) return;
    const subscriber = new (loadIoredis().Redis)(this.options.url, {
      lazyConnect: false,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
    });
    // Failures only delay readers until their next poll; the reason is in the log's own calls.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (_channel: string, message: string) => {
      const id = message.slice(2);
      if (message.startsWith('c:')) {
        for (const listener of this.cancelListeners.get(id) ?? []) listener();
      }
      this.notify(this.waiters, id);
    });
    subscriber.subscribe(this.channel).catch(() => undefined);
    this.subscriber = subscriber;
  }

  private notify(registry: Map<string, Set<() => void>>, id: string): void {
    const listeners = registry.get(id);
    if (!listeners) return;
    registry.delete(id);
    for (const wake of listeners) wake();
  }
}

function ms(seconds: number): number {
  return Math.max(1, Math.round(seconds * 1000));
}
