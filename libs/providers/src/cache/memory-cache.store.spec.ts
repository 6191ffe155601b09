import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../errors/config.error.js';
import { ToolkitError } from '../errors/toolkit.error.js';
import { createCacheStore } from './cache-store.factory.js';
import { MemoryCacheStore } from './memory-cache.store.js';

const settings = {
  enabled: true,
  backend: 'memory' as const,
  ttl: 300,
  redis_url: 'redis://127.0.0.1:6379',
  max_entries: 1000,
  key_prefix: 'toolkit:cache:',
};

describe('MemoryCacheStore', () => {
  it('stores and returns JSON values as fresh copies', async () => {
    const cache = new MemoryCacheStore();
    const value = { status: 200, body: { list: [1, 'two', null] } };
    await cache.set('k', value, 60);
    const first = await cache.get<typeof value>('k');
    expect(first).toEqual(value);
    first!.body.list.push(4);
    expect(await cache.get('k')).toEqual(value);
    expect(await cache.get('missing')).toBeUndefined();
  });

  it('expires entries after their TTL (controlled clock)', async () => {
    let now = 1_000;
    const cache = new MemoryCacheStore({ now: () => now });
    await cache.set('short', 'a', 1);
    await cache.set('long', 'b', 10);
    now += 999;
    expect(await cache.get('short')).toBe('a');
    now += 2;
    expect(await cache.get('short')).toBeUndefined();
    expect(await cache.get('long')).toBe('b');
  });

  it('expires entries after a small real TTL', async () => {
    const cache = new MemoryCacheStore();
    await cache.set('k', 1, 0.05);
    expect(await cache.get('k')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await cache.get('k')).toBeUndefined();
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = new MemoryCacheStore({ maxEntries: 3 });
    await cache.set('a', 1, 60);
    await cache.set('b', 2, 60);
    await cache.set('c', 3, 60);
    await cache.get('a'); // a is now more recent than b
    await cache.set('d', 4, 60);
    expect(cache.size).toBe(3);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('d')).toBe(4);
  });

  it('treats TTL 0 as "do not store" and refuses bad TTLs and values', async () => {
    const cache = new MemoryCacheStore();
    await cache.set('k', 1, 60);
    await cache.set('k', 2, 0);
    expect(await cache.get('k')).toBeUndefined();
    await expect(cache.set('k', 1, -1)).rejects.toThrow(ToolkitError);
    await expect(cache.set('k', 1, Number.NaN)).rejects.toThrow('non-negative');
    await expect(cache.set('k', undefined, 5)).rejects.toThrow('not JSON-serialisable');
    await expect(cache.set('k', { n: 1n }, 5)).rejects.toThrow('not JSON-serialisable');
  });

  it('counts hits in a fixed window that starts with the first (controlled clock)', async () => {
    let now = 1_000;
    const cache = new MemoryCacheStore({ now: () => now });
    expect(await cache.increment('k', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    now += 59_000;
    expect(await cache.increment('k', 60_000)).toEqual({ count: 2, resetInMs: 1_000 });
    expect(await cache.increment('other', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    now += 1_000;
    expect(await cache.increment('k', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    await expect(cache.increment('k', -1)).rejects.toThrow(ToolkitError);
    await expect(cache.increment('k', Number.NaN)).rejects.toThrow(/positive whole number/);
  });

  it('deletes entries', async () => {
    const cache = new MemoryCacheStore();
    await cache.set('k', 1, 60);
    await cache.delete('k');
    await cache.delete('never-set');
    expect(await cache.get('k')).toBeUndefined();
  });

  it('is what createCacheStore builds for backend memory, bounded by max_entries', async () => {
    const cache = createCacheStore({ ...settings, max_entries: 2 });
    expect(cache).toBeInstanceOf(MemoryCacheStore);
    await cache.set('a', 1, 60);
    await cache.set('b', 2, 60);
    await cache.set('c', 3, 60);
    expect(await cache.get('a')).toBeUndefined();
    await cache.close();
  });

  it('refuses a bad max_entries and an unknown backend with a ConfigError', () => {
    expect(() => new MemoryCacheStore({ maxEntries: 0 })).toThrow(ConfigError);
    expect(() => createCacheStore({ ...settings, backend: 'memcached' as 'memory' })).toThrow(
      'cache.backend must be one of memory, redis (got "memcached")',
    );
  });
});
