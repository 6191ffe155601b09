import type { MemoryBackend } from './memory-store.interface.js';

/**
 * The `memory.*` section of `toolkit.yaml`, resolved: what {@link createMemoryStore} builds a
 * store from.
 *
 * @example
 * const store = createMemoryStore({
 *   backend: 'postgres',
 *   max_history: 100,
 *   redis_url: 'redis://127.0.0.1:6379',
 *   postgres_url: 'postgres://127.0.0.1:5432/app',
 *   key_prefix: 'myapp',
 * });
 */
export interface MemorySettings {
  /** `memory` (in-process), `redis` or `postgres`. @default "memory" */
  backend: MemoryBackend;
  /** Newest messages kept per user; older ones are dropped. @default 100 */
  max_history: number;
  /** Redis URL for the `redis` backend. @default "redis://127.0.0.1:6379" */
  redis_url: string;
  /** PostgreSQL URL for the `postgres` backend. @default "postgres://127.0.0.1:5432/postgres" */
  postgres_url: string;
  /** Prefix of every Redis key (redis) or the table name (postgres). @default "toolkit" */
  key_prefix: string;
  /**
   * Most conversations kept, on every backend: in this process (`memory`), under `key_prefix`
   * (`redis`), or in the table (`postgres`), shared by all the processes using that Redis or
   * PostgreSQL. When a new conversation would pass it, the least recently used (read or written)
   * is deleted. @default 10000
   */
  max_conversations?: number;
  /**
   * Seconds a conversation may stay idle before it is dropped; `0` keeps conversations forever.
   * In-process: idle since last read or write; Redis: key TTL refreshed on every write;
   * PostgreSQL: purged in batches once its newest message is older. @default 86400 (24 h)
   */
  ttl?: number;
  /**
   * Seconds a Redis or PostgreSQL backend may take to connect or answer before the call fails
   * with 503 (a backend that accepts connections and never answers costs at most this). @default 2
   */
  timeout?: number;
}
