import type { MemoryMessage } from './memory-message.js';

/** The memory backends toolkit ships (`memory.backend` in `toolkit.yaml`). */
export type MemoryBackend = 'memory' | 'redis' | 'postgres';

/**
 * Where conversation histories live. One history per user id, oldest first, holding at most
 * {@link MemoryStore.maxHistory} messages (older ones are dropped as new ones arrive).
 * Implementations: `InMemoryMemoryStore`, `RedisMemoryStore`, `PostgresMemoryStore`; build one
 * from settings with `createMemoryStore()`.
 *
 * Every method rejects with a `MemoryUnavailableError` (503) when the backend cannot be reached,
 * quickly and without queueing, and works again by itself once the backend is back.
 *
 * @example
 * const store: MemoryStore = createMemoryStore({ ...settings, backend: 'redis' });
 * await store.append('alice', { role: 'user', content: 'Hi', timestamp: new Date().toISOString() });
 * const history = await store.list('alice'); // oldest first
 * await store.close();
 */
export interface MemoryStore {
  /** Which backend this is. */
  readonly backend: MemoryBackend;
  /** Newest messages kept per user. */
  readonly maxHistory: number;
  /** Appends one message to the user's history and drops the oldest beyond `maxHistory`, atomically. */
  append(userId: string, message: MemoryMessage): Promise<void>;
  /**
   * Appends several messages in order, all or nothing: every message is validated first, and the
   * write is one atomic operation (one round trip on Redis and PostgreSQL), so a failure stores
   * none of them. Then trims to `maxHistory` like `append`. An empty list does nothing.
   */
  appendMany(userId: string, messages: MemoryMessage[]): Promise<void>;
  /** The newest `limit` messages (default and cap: `maxHistory`), oldest first. */
  list(userId: string, limit?: number): Promise<MemoryMessage[]>;
  /** Deletes the user's whole history. */
  clear(userId: string): Promise<void>;
  /**
   * Checks the backend answers (readiness): resolves when it does, rejects with
   * `MemoryUnavailableError` (503) when it is down, closed or does not answer within its timeout.
   */
  ping(): Promise<void>;
  /** Releases connections; calls made afterwards reject with 503. Safe to call twice. */
  close(): Promise<void>;
}

/** Injection token for the application's {@link MemoryStore}. */
export const MemoryStore = Symbol('MemoryStore');
