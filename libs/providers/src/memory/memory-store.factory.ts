import type { MemorySettings } from './memory-settings.js';
import { ConfigError } from '../errors/config.error.js';
import { timeoutMilliseconds } from '../backends/backend-timeout.js';
import { InMemoryMemoryStore } from './in-memory-memory.store.js';
import type { MemoryStore } from './memory-store.interface.js';
import { PostgresMemoryStore } from './postgres-memory.store.js';
import type { PostgresMemoryStoreOptions } from './postgres-memory.store.js';
import { RedisMemoryStore } from './redis-memory.store.js';
import type { RedisMemoryStoreOptions } from './redis-memory.store.js';

/** Timeouts and pool size beyond what `toolkit.yaml` sets; all optional. */
export type MemoryStoreTuning = Pick<
  RedisMemoryStoreOptions & PostgresMemoryStoreOptions,
  'connectTimeoutMs' | 'commandTimeoutMs' | 'queryTimeoutMs' | 'maxReconnectDelayMs' | 'poolSize'
>;

/**
 * Builds the {@link MemoryStore} `memory.backend` names: `memory` (in-process), `redis`
 * (`memory.redis_url`, keys under `memory.key_prefix`) or `postgres` (`memory.postgres_url`, table
 * `<key_prefix>_memory`), bounded by `memory.max_conversations` (every backend) and `memory.ttl`;
 * `memory.timeout` bounds every wait on Redis or PostgreSQL (connect, command, query). Nothing connects until the first call, so a backend that is down does not
 * stop the application from starting; its routes answer 503 until it is back.
 *
 * @throws ConfigError for an unknown backend.
 * @example
 * const store = createMemoryStore(config.memory);
 * const memory = new StoreConversationMemory(store, 'alice');
 */
export function createMemoryStore(
  settings: MemorySettings,
  tuning: MemoryStoreTuning = {},
): MemoryStore {
  const maxHistory = settings.max_history;
  const ttlSeconds = settings.ttl;
  const maxConversations = settings.max_conversations;
  const backend: string = settings.backend;
  // memory.timeout bounds connecting and every answer, unless `tuning` says otherwise.
  const timeoutMs = timeoutMilliseconds('memory.timeout', settings.timeout);
  const bounded = {
    connectTimeoutMs: timeoutMs,
    commandTimeoutMs: timeoutMs,
    queryTimeoutMs: timeoutMs,
    ...tuning,
  };
  switch (backend) {
    case 'memory':
      return new InMemoryMemoryStore({
        maxHistory,
        maxConversations,
        ttlSeconds,
      });
    case 'redis':
      return new RedisMemoryStore({
        ...bounded,
        ttlSeconds,
        url: settings.redis_url,
        keyPrefix: settings.key_prefix,
        maxHistory,
        maxConversations,
      });
    case 'postgres':
      return new PostgresMemoryStore({
        ...bounded,
        ttlSeconds,
        url: settings.postgres_url,
        keyPrefix: settings.key_prefix,
        maxHistory,
        maxConversations,
      });
    default:
      throw new ConfigError(
        'memory.backend',
        `must be one of memory, redis, postgres (got ${JSON.stringify(backend)})`,
        'the memory settings',
      );
  }
}
