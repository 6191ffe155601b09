import type { CacheBackend } from './cache-store.interface.js';

/**
 * The `cache.*` section of `toolkit.yaml`, resolved: what {@link createCacheStore} builds a
 * store from, and what `@Cache` reads its defaults from.
 *
 * @example
 * const cache = createCacheStore({
 *   enabled: true,
 *   backend: 'redis',
 *   ttl: 300,
 *   redis_url: 'redis://127.0.0.1:6379',
 *   max_entries: 1000,
 *   key_prefix: 'myapp:cache:',
 * });
 */
export interface CacheSettings {
  /** Master switch for `@Cache`. @default true */
  enabled: boolean;
  /** `memory` (in-process LRU) or `redis`. @default "memory" */
  backend: CacheBackend;
  /** Default time-to-live in seconds when `@Cache()` names none. @default 300 */
  ttl: number;
  /** Redis URL for the `redis` backend. @default "redis://127.0.0.1:6379" */
  redis_url: string;
  /** Most entries the `memory` backend keeps (least recently used go first). @default 1000 */
  max_entries: number;
  /** Prefix of every Redis key the cache writes. @default "toolkit:cache:" */
  key_prefix: string;
  /**
   * Seconds a process holds the cluster-wide lock of a missed key on the `redis` backend without
   * refreshing it (it refreshes every third of this while its handler runs): how long the
   * others wait before taking over from a process that died. @default 10
   */
  lock_ttl?: number;
  /**
   * Seconds a Redis cache may take to connect or answer before a cached route runs uncached
   * (a backend that accepts connections and never answers costs at most this). @default 2
   */
  timeout?: number;
}
