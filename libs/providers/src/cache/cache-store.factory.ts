import type { CacheSettings } from './cache-settings.js';
import { ConfigError } from '../errors/config.error.js';
import type { RedisConnectionOptions } from '../backends/redis-connection.js';
import type { CacheStore } from './cache-store.interface.js';
import { MemoryCacheStore } from './memory-cache.store.js';
import { RedisCacheStore } from './redis-cache.store.js';
import { timeoutMilliseconds } from '../backends/backend-timeout.js';

/**
 * Builds the {@link CacheStore} `cache.backend` names: `memory` (LRU of `cache.max_entries`) or
 * `redis` (`cache.redis_url`, keys under `cache.key_prefix`). Nothing connects until first use.
 * `cache.enabled` is the caller's switch; this builds the store either way.
 *
 * @param tuning - Redis timeouts. @default {} (connect and command: `cache.timeout`, 2 s)
 * @throws ConfigError for an unknown backend.
 * @example
 * const cache = createCacheStore(config.cache);
 */
export function createCacheStore(
  settings: CacheSettings,
  tuning: RedisConnectionOptions = {},
): CacheStore {
  const backend: string = settings.backend;
  switch (backend) {
    case 'memory':
      return new MemoryCacheStore({ maxEntries: settings.max_entries });
    case 'redis':
      return new RedisCacheStore({
        connectTimeoutMs: timeoutMilliseconds('cache.timeout', settings.timeout),
        commandTimeoutMs: timeoutMilliseconds('cache.timeout', settings.timeout),
        ...tuning,
        url: settings.redis_url,
        keyPrefix: settings.key_prefix,
      });
    default:
      throw new ConfigError(
        'cache.backend',
        `must be one of memory, redis (got ${JSON.stringify(backend)})`,
        'the cache settings',
      );
  }
}
