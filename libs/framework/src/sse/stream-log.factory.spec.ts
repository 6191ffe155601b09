import { describe, expect, it } from '@jest/globals';
import { MemoryStreamLog } from '../../../providers/src/streams/memory-stream-log.js';
import { RedisStreamLog } from '../../../providers/src/streams/redis-stream-log.js';
import { configDefaults } from '../config/config-defaults.js';
import { createStreamLog } from './stream-log.factory.js';

describe('createStreamLog', () => {
  it('keeps streams in this process when neither memory nor cache uses Redis', async () => {
    const log = createStreamLog(configDefaults());
    expect(log).toBeInstanceOf(MemoryStreamLog);
    await log.close();
  });

  it('shares streams through Redis when the memory does', async () => {
    const config = configDefaults();
    config.memory.backend = 'redis';
    const log = createStreamLog(config);
    expect(log).toBeInstanceOf(RedisStreamLog);
    expect(log.backend).toBe('redis');
    await log.close();
  });

  it('shares streams through Redis when the cache does, unless the cache is off', async () => {
    const config = configDefaults();
    config.cache.backend = 'redis';
    const shared = createStreamLog(config);
    expect(shared.backend).toBe('redis');
    await shared.close();
    config.cache.enabled = false;
    const local = createStreamLog(config);
    expect(local.backend).toBe('memory');
    await local.close();
  });
});
