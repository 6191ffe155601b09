import { LRUCache } from 'lru-cache';
import { ConfigError } from '../errors/config.error.js';
import { checkWindowMs, serializeEntry, ttlMilliseconds } from './cache-entry.js';
import type { CacheStore, WindowCount } from './cache-store.interface.js';
import { CACHE_ATTRIBUTE, CACHE_SPAN, CACHE_SPAN_OPTIONS } from './cache-spans.js';
import { traced } from '../telemetry/tracing.js';

/** Options of {@link MemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Most entries kept; the least recently used go first. @default 1000 */
  maxEntries?: number;
  /** Clock in milliseconds (tests pass a controllable one). @default performance.now */
  now?: () => number;
}

/**
 * In-process cache (`cache.backend: memory`, the default): an LRU bounded by `maxEntries` whose
 * entries also expire after their TTL. Values are kept as JSON text, so a caller mutating what it
 * got back never changes the cache. `get` and `set` are `toolkit.cache.*` spans while tracing is on.
 *
 * @example
 * const cache = new MemoryCacheStore({ maxEntries: 500 });
 * await cache.set('k', { body: 'hi' }, 30);
 */
export class MemoryCacheStore implements CacheStore {
  readonly backend = 'memory' as const;
  private readonly entries: LRUCache<string, string>;
  /** Counters of {@link increment}, as many as entries at most (least recently used dropped). */
  private readonly counters: LRUCache<string, { count: number; resetAt: number }>;
  private readonly now: () => number;

  constructor(options: MemoryCacheStoreOptions = {}) {
    const max = options.maxEntries ?? 1000;
    if (!Number.isSafeInteger(max) || max <= 0) {
      throw new ConfigError(
        'cache.max_entries',
        `must be a positive integer (got ${String(max)})`,
        'the cache store options',
      );
    }
    const now = options.now;
    this.entries = new LRUCache<string, string>({
      max,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
    this.counters = new LRUCache({ max });
    this.now = now ?? Date.now;
  }

  /** Entries currently held (expired ones may count until touched). */
  get size(): number {
    return this.entries.size;
  }

  get<T = unknown>(key: string): Promise<T | undefined> {
    return traced(CACHE_SPAN.get, CACHE_SPAN_OPTIONS.memory, (span) => {
      const text = this.entries.get(key);
      if (span.recording) span.setAttributes({ [CACHE_ATTRIBUTE.hit]: text !== undefined });
      return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as T));
    });
  }

  set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    return traced(CACHE_SPAN.set, CACHE_SPAN_OPTIONS.memory, (span) => {
      if (span.recording) span.setAttributes({ [CACHE_ATTRIBUTE.ttl]: ttlSeconds });
      const ttl = ttlMilliseconds(ttlSeconds);
      const text = serializeEntry(key, value);
      if (ttl === 0) this.entries.delete(key);
      else this.entries.set(key, text, { ttl });
      return Promise.resolve();
    });
  }

  delete(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  increment(key: string, windowMs: number): Promise<WindowCount> {
    // A bad window rejects (the executor's throw), as on Redis.
    return new Promise((resolve) => resolve(this.count(key, checkWindowMs(windowMs))));
  }

  private count(key: string, window: number): WindowCount {
    const now = this.now();
    let counter = this.counters.get(key);
    if (counter === undefined || counter.resetAt <= now) {
      counter = { count: 0, resetAt: now + window };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    return { count: counter.count, resetInMs: counter.resetAt - now };
  }

  close(): Promise<void> {
    this.entries.clear();
    this.counters.clear();
    return Promise.resolve();
  }
}
