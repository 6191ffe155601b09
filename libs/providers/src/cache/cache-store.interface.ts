import type { CacheLock } from './cache-lock.js';
/** The cache backends toolkit ships (`cache.backend` in `toolkit.yaml`). */
export type CacheBackend = 'memory' | 'redis';

/** A counter's state after {@link CacheStore.increment}. */
export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetInMs: number;
}

/**
 * Where `@Cache` keeps results. Values are opaque JSON-serialisable objects (what you `get` back
 * is a fresh parsed copy, never the object you stored); entries expire after their TTL.
 * Implementations: `MemoryCacheStore` (lru-cache) and `RedisCacheStore`; build one from settings
 * with `createCacheStore()`. A Redis store that cannot reach its server rejects with
 * `CacheUnavailableError`, which callers log and bypass: a cache never fails a request.
 *
 * @example
 * const cache: CacheStore = createCacheStore(config.cache);
 * await cache.set(key, { status: 200, body: { answer: 42 } }, 60);
 * const hit = await cache.get<{ status: number; body: unknown }>(key);
 */
export interface CacheStore {
  /** Which backend this is. */
  readonly backend: CacheBackend;
  /** The stored value, or `undefined` when absent or expired. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * Stores `value` (JSON-serialisable) for `ttlSeconds` (may be fractional; `0` stores nothing).
   * @throws ToolkitError when the value cannot be serialised or the TTL is negative or not finite.
   */
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /**
   * Takes the cluster-wide lock on `key` for `ttlSeconds`, or `undefined` when another holder
   * has it. Present on shared backends (Redis) only: `@Cache` uses it so concurrent misses of
   * the same key in several processes run the handler once.
   */
  lock?(key: string, ttlSeconds: number): Promise<CacheLock | undefined>;
  /** Removes one entry (no error when absent). */
  delete(key: string): Promise<void>;
  /**
   * Checks the backend answers (readiness): resolves when it does, rejects with
   * `CacheUnavailableError` (503) when it is down or does not answer within `cache.timeout`.
   */
  ping(): Promise<void>;
  /**
   * Counts one more hit on `key` in a fixed window of `windowMs` milliseconds that starts with the
   * first hit (a rate limiter's counter). Atomic: on Redis one `INCR` + `PEXPIRE` script, so every
   * process sharing the server shares the count.
   * @throws ToolkitError when `windowMs` is not a positive whole number.
   */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** Releases connections. Safe to call twice. */
  close(): Promise<void>;
}

/** Injection token for the application's {@link CacheStore}. */
export const CacheStore = Symbol('CacheStore');
