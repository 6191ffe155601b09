import type { StreamLog } from '../../../providers/src/internal.js';
import { MemoryStreamLog, RedisStreamLog } from '../../../providers/src/internal.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';

/**
 * The stream log the configuration implies: shared through Redis when the memory or the cache
 * is (so any process can resume any stream), else in this process. No connection is opened
 * before the first resumable stream.
 *
 * @example
 * const log = createStreamLog(config); // MemoryStreamLog with the default configuration
 */
export function createStreamLog(config: Pick<ToolkitConfig, 'memory' | 'cache'>): StreamLog {
  const { memory, cache } = config;
  if (memory.backend === 'redis') {
    return new RedisStreamLog({ url: memory.redis_url, keyPrefix: `${memory.key_prefix}:stream:` });
  }
  if (cache.enabled && cache.backend === 'redis') {
    return new RedisStreamLog({ url: cache.redis_url, keyPrefix: `${cache.key_prefix}stream:` });
  }
  return new MemoryStreamLog();
}
