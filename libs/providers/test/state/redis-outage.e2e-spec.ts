import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError } from '../../src/errors/service-unavailable.error.js';
import { CacheUnavailableError } from '../../src/cache/cache-unavailable.error.js';
import { RedisCacheStore } from '../../src/cache/redis-cache.store.js';
import { MemoryUnavailableError } from '../../src/memory/memory-unavailable.error.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import { StoreConversationMemory } from '../../src/memory/conversation-memory.js';
import { uniquePrefix } from './support/backends.js';
import { RedisServerProcess } from './support/redis-server.process.js';
import { eventually, freePort, timed } from './support/timing.js';

/** Generous bound that only proves "no hang"; the real figure is a few milliseconds. */
const FAST_MS = 3000;

describe('Redis stores when their server dies and comes back', () => {
  let port: number;
  let server: RedisServerProcess;
  let memoryStore: RedisMemoryStore;
  let cacheStore: RedisCacheStore;
  const prefix = uniquePrefix('outage');

  beforeAll(async () => {
    port = await freePort();
    server = await RedisServerProcess.start(port);
    const url = `redis://127.0.0.1:${port}`;
    memoryStore = new RedisMemoryStore({ url, keyPrefix: prefix, maxHistory: 50 });
    cacheStore = new RedisCacheStore({ url, keyPrefix: `${prefix}:cache:` });
  });

  afterAll(async () => {
    await memoryStore.close();
    await cacheStore.close();
    await server.kill();
  });

  it('fails fast with a 503 naming the backend while down, then heals without a restart', async () => {
    const memory = new StoreConversationMemory(memoryStore, 'alice');
    await memory.add('user', 'before the outage');
    await cacheStore.set('k', { v: 1 }, 60);
    expect(await cacheStore.get('k')).toEqual({ v: 1 });

    await server.kill();

    for (const call of [
      () => memory.add('user', 'during the outage'),
      () => memory.toDictList(),
      () => memory.clear(),
    ]) {
      const { ms, error } = await timed<unknown>(call());
      expect(error).toBeInstanceOf(MemoryUnavailableError);
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect((error as MemoryUnavailableError).statusCode).toBe(503);
      expect((error as Error).message).toMatch(
        new RegExp(`^Memory backend unavailable: redis at 127\\.0\\.0\\.1:${port} \\(`),
      );
      expect(ms).toBeLessThan(FAST_MS);
    }
    for (const call of [() => cacheStore.get('k'), () => cacheStore.set('k', 1, 60)]) {
      const { ms, error } = await timed<unknown>(call());
      expect(error).toBeInstanceOf(CacheUnavailableError);
      expect((error as Error).message).toContain(
        `Cache backend unavailable: redis at 127.0.0.1:${port}`,
      );
      expect(ms).toBeLessThan(FAST_MS);
    }

    // Many calls at once while down: all rejected, none left hanging in a queue.
    const burst = await timed(
      Promise.allSettled(Array.from({ length: 50 }, (_, n) => memory.add('user', `burst ${n}`))),
    );
    expect(burst.value?.every((r) => r.status === 'rejected')).toBe(true);
    expect(burst.ms).toBeLessThan(FAST_MS);

    server = await RedisServerProcess.start(port);

    // Same store objects, no restart: they reconnect by themselves (the data died with the server).
    await eventually(() => memory.add('user', 'after the outage'));
    expect((await memory.toDictList()).map((m) => m.content)).toEqual(['after the outage']);
    await eventually(() => cacheStore.set('k', { v: 2 }, 60));
    expect(await cacheStore.get('k')).toEqual({ v: 2 });
  });

  it('settles every command in flight at once when the server dies (no hang), each failure a 503', async () => {
    const memory = new StoreConversationMemory(memoryStore, 'in-flight');
    await eventually(() => memory.clear());
    const inFlight = Promise.allSettled(
      Array.from({ length: 200 }, (_, n) => memory.add('user', `m${n}`)),
    );
    await server.kill();
    const { ms, value } = await timed(inFlight);
    expect(ms).toBeLessThan(FAST_MS);
    const rejected = value!.filter((r) => r.status === 'rejected');
    for (const r of rejected) expect(r.reason).toBeInstanceOf(MemoryUnavailableError);
    server = await RedisServerProcess.start(port);
    await eventually(() => memory.toDictList());
  });
});

describe('Redis stores whose server is not there at start', () => {
  it('answer 503 fast without leaking the password, and work once a server appears', async () => {
    const port = await freePort();
    const url = `redis://:hunter2-secret@127.0.0.1:${port}`;
    const memoryStore = new RedisMemoryStore({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: uniquePrefix('late'),
    });
    const secretStore = new RedisMemoryStore({ url, keyPrefix: uniquePrefix('secret') });
    const cacheStore = new RedisCacheStore({ url: `redis://127.0.0.1:${port}` });
    let server: RedisServerProcess | undefined;
    try {
      const first = await timed(memoryStore.list('alice'));
      expect(first.error).toBeInstanceOf(MemoryUnavailableError);
      expect(first.ms).toBeLessThan(FAST_MS);

      const secret = await timed(secretStore.list('alice'));
      expect(secret.error).toBeInstanceOf(MemoryUnavailableError);
      expect((secret.error as Error).message).not.toContain('hunter2');
      expect(JSON.stringify(secret.error)).not.toContain('hunter2');

      const cached = await timed(cacheStore.get('k'));
      expect(cached.error).toBeInstanceOf(CacheUnavailableError);
      expect(cached.ms).toBeLessThan(FAST_MS);

      server = await RedisServerProcess.start(port);
      expect(await eventually(() => memoryStore.list('alice'))).toEqual([]);
      expect(await eventually(() => cacheStore.get('k'))).toBeUndefined();
    } finally {
      await Promise.all([memoryStore.close(), secretStore.close(), cacheStore.close()]);
      await server?.kill();
    }
  });

  it('a closed store answers 503 and close() is idempotent', async () => {
    const store = new RedisMemoryStore({ url: 'redis://127.0.0.1:1' });
    await store.close();
    await store.close();
    await expect(store.list('alice')).rejects.toThrow(
      'Memory backend unavailable: redis store has been closed',
    );
  });
});
