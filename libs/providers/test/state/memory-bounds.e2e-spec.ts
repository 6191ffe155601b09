import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { collectGarbage } from '../../../../test/support/collect-garbage.js';
import { ConfigError } from '../../src/errors/config.error.js';
import { InMemoryMemoryStore } from '../../src/memory/in-memory-memory.store.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import { createMemoryStore } from '../../src/memory/memory-store.factory.js';
import type { MemoryMessage } from '../../src/memory/memory-message.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  sql,
  uniquePrefix,
} from './support/backends.js';

const message = (content: string, timestamp = new Date().toISOString()): MemoryMessage => ({
  role: 'user',
  content,
  timestamp,
});

describe('in-process memory: bounded number and age of conversations', () => {
  it('drops the least recently used conversation beyond max_conversations', async () => {
    const store = new InMemoryMemoryStore({ maxConversations: 3 });
    for (const user of ['a', 'b', 'c']) await store.append(user, message(`for ${user}`));
    await store.list('a'); // a is now more recently used than b
    await store.append('d', message('for d'));
    expect(store.conversations).toBe(3);
    expect(await store.list('b')).toEqual([]);
    for (const user of ['a', 'c', 'd']) {
      expect((await store.list(user)).map((m) => m.content)).toEqual([`for ${user}`]);
    }
  });

  it('forgets a conversation unused for longer than the TTL, and keeps a used one', async () => {
    let clock = 1_000_000;
    const store = new InMemoryMemoryStore({ ttlSeconds: 60, now: () => clock });
    await store.append('idle', message('old'));
    await store.append('busy', message('old'));
    clock += 45_000;
    await store.list('busy'); // used: its 60 s start again
    clock += 30_000; // idle: 75 s unused; busy: 30 s
    expect(await store.list('idle')).toEqual([]);
    expect((await store.list('busy')).map((m) => m.content)).toEqual(['old']);
    await store.append('idle', message('new'));
    expect((await store.list('idle')).map((m) => m.content)).toEqual(['new']);
  });

  it('keeps conversations forever with ttl 0', async () => {
    let clock = 0;
    const store = new InMemoryMemoryStore({ ttlSeconds: 0, now: () => clock });
    await store.append('u', message('kept'));
    clock += 10 * 365 * 86_400_000;
    expect(await store.list('u')).toHaveLength(1);
  });

  it.each([
    [{ maxConversations: 0 }, 'memory.max_conversations must be a positive integer (got 0)'],
    [{ maxConversations: 2.5 }, 'memory.max_conversations must be a positive integer (got 2.5)'],
    [{ ttlSeconds: -1 }, 'memory.ttl must be a non-negative number of seconds (got -1)'],
    [{ ttlSeconds: Number.NaN }, 'memory.ttl must be a non-negative number of seconds (got NaN)'],
  ])('refuses bad bounds %p', (options, text) => {
    expect(() => new InMemoryMemoryStore(options)).toThrow(ConfigError);
    expect(() => new InMemoryMemoryStore(options)).toThrow(text);
  });

  it('holds at most max_conversations while 100,000 distinct users write', async () => {
    const store = createMemoryStore({
      backend: 'memory',
      max_history: 100,
      redis_url: REDIS_URL,
      postgres_url: POSTGRES_URL,
      key_prefix: 'unused',
    });
    const text = 'x'.repeat(500);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 100_000; n += 1) {
      await store.appendMany(`user-${n}`, [message(`${n} ${text}`), message(`${n} answer`)]);
    }
    collectGarbage();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    // Reported by the bounded-state note (issue 12): the figure this run measured.
    process.stdout.write(`100,000 conversations written; heap grew ${grownMb.toFixed(1)} MB\n`);
    expect((store as InMemoryMemoryStore).conversations).toBe(10_000);
    expect(await store.list('user-0')).toEqual([]);
    expect(await store.list('user-99999')).toHaveLength(2);
    // 10,000 kept conversations of ~1 KB each; all 100,000 would need well over 100 MB.
    expect(grownMb).toBeLessThan(40);
    await store.close();
  });
});

describe('Redis memory: key TTL refreshed on every write', () => {
  const prefix = uniquePrefix('ttl_redis');
  const redis = new Redis(REDIS_URL);
  afterAll(async () => {
    await deleteRedisKeys(`${prefix}:`);
    redis.disconnect();
  });

  it('sets the TTL on write and starts it again on the next write', async () => {
    const store = new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix, ttlSeconds: 3600 });
    try {
      await store.append('alice', message('hi'));
      const key = store.keyFor('alice');
      const first = await redis.pttl(key);
      expect(first).toBeGreaterThan(3_500_000);
      expect(first).toBeLessThanOrEqual(3_600_000);
      await redis.pexpire(key, 5000);
      await store.appendMany('alice', [message('q'), message('a')]);
      expect(await redis.pttl(key)).toBeGreaterThan(3_500_000);
    } finally {
      await store.close();
    }
  });

  it('lets a history expire when idle, and never expires with ttl 0', async () => {
    const short = new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix, ttlSeconds: 0.2 });
    const forever = new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix, ttlSeconds: 0 });
    try {
      await short.append('brief', message('gone soon'));
      await forever.append('kept', message('stays'));
      expect(await redis.pttl(forever.keyFor('kept'))).toBe(-1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await short.list('brief')).toEqual([]);
      expect(await forever.list('kept')).toHaveLength(1);
    } finally {
      await Promise.all([short.close(), forever.close()]);
    }
  });
});

describe('PostgreSQL memory: expired conversations purged in bounded batches', () => {
  const prefix = uniquePrefix('ttl_pg');
  afterAll(() => dropTable(`${prefix}_memory`));
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

  it('deletes whole idle conversations and keeps active ones, batch by batch', async () => {
    const store = new PostgresMemoryStore({
      url: POSTGRES_URL,
      keyPrefix: prefix,
      ttlSeconds: 3600,
      purgeBatchSize: 4,
    });
    try {
      for (let n = 0; n < 6; n += 1) {
        await store.appendMany(`idle-${n}`, [message('q', hoursAgo(5)), message('a', hoursAgo(4))]);
      }
      await store.appendMany('active', [message('old', hoursAgo(6)), message('new', hoursAgo(0))]);
      await store.append('fresh', message('now'));

      const deleted: number[] = [];
      for (let round = 0; round < 8; round += 1) deleted.push(await store.purgeExpired());
      // 4 oldest messages per batch: never more than 4 idle users' histories per call.
      expect(Math.max(...deleted)).toBeLessThanOrEqual(8);
      expect(deleted.reduce((a, b) => a + b, 0)).toBe(12);
      for (let n = 0; n < 6; n += 1) expect(await store.list(`idle-${n}`)).toEqual([]);
      expect((await store.list('active')).map((m) => m.content)).toEqual(['old', 'new']);
      expect(await store.list('fresh')).toHaveLength(1);
      const [{ count }] = await sql<{ count: string }>(`SELECT count(*) FROM "${prefix}_memory"`);
      expect(Number(count)).toBe(3);
    } finally {
      await store.close();
    }
  });

  it('purges by itself in the background after 1,000 writes', async () => {
    const store = new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix, ttlSeconds: 60 });
    try {
      await store.appendMany('forgotten', [message('q', hoursAgo(2)), message('a', hoursAgo(2))]);
      for (let n = 0; n < 1000; n += 25) {
        await Promise.all(
          Array.from({ length: 25 }, (_, i) => store.append(`busy-${i}`, message(`m${n + i}`))),
        );
      }
      const deadline = Date.now() + 10_000;
      while ((await store.list('forgotten')).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await store.list('forgotten')).toEqual([]);
      expect(await store.list('busy-0')).toHaveLength(40);
    } finally {
      await store.close();
    }
  });

  it('purges nothing with ttl 0 and refuses a bad batch size', async () => {
    const store = new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix, ttlSeconds: 0 });
    try {
      await store.append('ancient', message('kept', hoursAgo(10_000)));
      expect(await store.purgeExpired()).toBe(0);
      expect(await store.list('ancient')).toHaveLength(1);
    } finally {
      await store.close();
    }
    expect(() => new PostgresMemoryStore({ purgeBatchSize: 0 })).toThrow(ConfigError);
    expect(() => new PostgresMemoryStore({ ttlSeconds: -3 })).toThrow('memory.ttl must be');
  });
});
