import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { RedisConnection } from '../backends/redis-connection.js';
import type { RedisConnectionOptions } from '../backends/redis-connection.js';
import { checkWindowMs, serializeEntry, ttlMilliseconds } from './cache-entry.js';
import type { CacheLock } from './cache-lock.js';
import type { CacheStore, WindowCount } from './cache-store.interface.js';
import { CacheUnavailableError } from './cache-unavailable.error.js';
import { CACHE_ATTRIBUTE, CACHE_SPAN, CACHE_SPAN_OPTIONS } from './cache-spans.js';
import { traced } from '../telemetry/tracing.js';

/** Extends the lock only while it still holds this holder's token. */
const REFRESH_IF_HELD =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
/** Deletes the lock only while it still holds this holder's token. */
const DELETE_IF_HELD =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * One round trip, atomic: count the hit, start the window on the first one (or on a key left
 * without expiry), and say how long the window has left.
 */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if count == 1 or left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return { count, left }`;

/** Options of {@link RedisCacheStore}. */
export interface RedisCacheStoreOptions extends RedisConnectionOptions {
  /** Redis URL. @default "redis://127.0.0.1:6379" */
  url?: string;
  /** Prefix of every key written. @default "toolkit:cache:" */
  keyPrefix?: string;
}

/**
 * Cache in Redis (`cache.backend: redis`), shared by every app process: `SET key json PX ttl`.
 * When Redis is unreachable every call rejects at once with `CacheUnavailableError` (no queueing,
 * no hang) and the store recovers by itself when Redis is back. `get` and `set` are
 * `toolkit.cache.*` spans while tracing is on, the parents of the Redis client's own.
 *
 * @example
 * const cache = new RedisCacheStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'myapp:cache:' });
 */
export class RedisCacheStore implements CacheStore {
  readonly backend = 'redis' as const;
  private readonly keyPrefix: string;
  private readonly connection: RedisConnection;

  constructor(options: RedisCacheStoreOptions = {}) {
    this.keyPrefix = options.keyPrefix ?? 'toolkit:cache:';
    this.connection = new RedisConnection(
      options.url ?? 'redis://127.0.0.1:6379',
      (detail, cause) => new CacheUnavailableError(detail, cause),
      options,
    );
  }

  get<T = unknown>(key: string): Promise<T | undefined> {
    return traced(CACHE_SPAN.get, CACHE_SPAN_OPTIONS.redis, async (span) => {
      const text = await this.connection.run((redis) => redis.get(this.keyPrefix + key));
      const value = text === null ? undefined : parseEntry<T>(text);
      if (span.recording) span.setAttributes({ [CACHE_ATTRIBUTE.hit]: value !== undefined });
      return value;
    });
  }

  set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    return traced(CACHE_SPAN.set, CACHE_SPAN_OPTIONS.redis, async (span) => {
      if (span.recording) span.setAttributes({ [CACHE_ATTRIBUTE.ttl]: ttlSeconds });
      const ttl = ttlMilliseconds(ttlSeconds);
      const text = serializeEntry(key, value);
      const redisKey = this.keyPrefix + key;
      await this.connection.run<unknown>((redis) =>
        ttl === 0 ? redis.del(redisKey) : redis.set(redisKey, text, 'PX', ttl),
      );
    });
  }

  async lock(key: string, ttlSeconds: number): Promise<CacheLock | undefined> {
    const lockKey = `${this.keyPrefix}lock:${key}`;
    const token = randomBytes(16).toString('base64url');
    const ttl = Math.max(1, Math.round(ttlSeconds * 1000));
    const taken = await this.connection.run((redis) => redis.set(lockKey, token, 'PX', ttl, 'NX'));
    if (taken !== 'OK') return undefined;
    const ifHeld = (script: string) => (redis: Redis) =>
      redis.eval(script, 1, lockKey, token, String(ttl)) as Promise<number>;
    return {
      refresh: async () => (await this.connection.run(ifHeld(REFRESH_IF_HELD))) === 1,
      release: async () => {
        await this.connection.run(ifHeld(DELETE_IF_HELD));
      },
    };
  }

  async delete(key: string): Promise<void> {
    await this.connection.run((redis) => redis.del(this.keyPrefix + key));
  }

  async ping(): Promise<void> {
    await this.connection.run((redis) => redis.ping());
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const window = checkWindowMs(windowMs);
    const [count, left] = (await this.connection.run((redis) =>
      redis.eval(INCREMENT_SCRIPT, 1, this.keyPrefix + key, String(window)),
    )) as [number, number];
    return { count, resetInMs: left };
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** A stored entry's value; one not written by this store is a miss, overwritten by the next set. */
function parseEntry<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
