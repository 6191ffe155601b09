import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisCacheStore } from '../../src/cache/redis-cache.store.js';
import { createCacheStore } from '../../src/cache/cache-store.factory.js';
import { REDIS_URL, deleteRedisKeys, uniquePrefix } from './support/backends.js';

describe('RedisCacheStore', () => {
  const prefix = `${uniquePrefix('cache')}:`;
  const stores: RedisCacheStore[] = [];
  const store = () => {
    const created = new RedisCacheStore({ url: REDIS_URL, keyPrefix: prefix });
    stores.push(created);
    return created;
  };
  const raw = new Redis(REDIS_URL, { lazyConnect: true });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await deleteRedisKeys(prefix);
    raw.disconnect();
  });

  it('counts hits atomically across store objects, in a window that starts with the first', async () => {
    const [one, two] = [store(), store()];
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? one : two).increment('rate:k', 60_000)),
    );
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, n) => n + 1),
    );
    expect(hits.every((hit) => hit.resetInMs > 0 && hit.resetInMs <= 60_000)).toBe(true);
    const ttl = await raw.pttl(`${prefix}rate:k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('starts a new window once the old one expired, and refuses a bad window', async () => {
    const cache = store();
    expect((await cache.increment('rate:short', 100)).count).toBe(1);
    expect((await cache.increment('rate:short', 100)).count).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await cache.increment('rate:short', 100)).count).toBe(1);
    await raw.set(`${prefix}rate:forever`, '7');
    expect(await cache.increment('rate:forever', 5_000)).toEqual({ count: 8, resetInMs: 5_000 });
    await expect(cache.increment('rate:bad', 0)).rejects.toThrow(/positive whole number/);
    await expect(cache.increment('rate:bad', 1.5)).rejects.toThrow(/positive whole number/);
  });

  it('stores JSON under the key prefix with a TTL, shared between store objects', async () => {
    const value = { status: 200, body: { text: 'Grüße 😀', n: [1, 2] } };
    await store().set('GET /a abc', value, 30);
    expect(await store().get('GET /a abc')).toEqual(value);
    const ttl = await raw.pttl(`${prefix}GET /a abc`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('expires entries after a small TTL', async () => {
    const cache = store();
    await cache.set('short', 'v', 0.15);
    expect(await cache.get('short')).toBe('v');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await cache.get('short')).toBeUndefined();
  });

  it('deletes, treats TTL 0 as no entry, and reads a foreign value as a miss', async () => {
    const cache = store();
    await cache.set('d', 1, 30);
    await cache.delete('d');
    expect(await cache.get('d')).toBeUndefined();
    await cache.set('z', 1, 30);
    await cache.set('z', 2, 0);
    expect(await cache.get('z')).toBeUndefined();
    await raw.set(`${prefix}foreign`, 'not json {', 'EX', 30);
    expect(await cache.get('foreign')).toBeUndefined();
    await expect(cache.set('bad', () => 1, 30)).rejects.toThrow('not JSON-serialisable');
  });

  it('is what createCacheStore builds for backend redis', async () => {
    const cache = createCacheStore({
      enabled: true,
      backend: 'redis',
      ttl: 300,
      redis_url: REDIS_URL,
      max_entries: 10,
      key_prefix: prefix,
    });
    try {
      expect(cache).toBeInstanceOf(RedisCacheStore);
      await cache.set('factory', { ok: true }, 30);
      expect(await store().get('factory')).toEqual({ ok: true });
    } finally {
      await cache.close();
    }
  });
});
