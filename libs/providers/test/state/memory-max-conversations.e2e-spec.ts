import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { ConfigError } from '../../src/errors/config.error.js';
import { createMemoryStore } from '../../src/memory/memory-store.factory.js';
import type { MemoryMessage } from '../../src/memory/memory-message.js';
import type { MemoryStore } from '../../src/memory/memory-store.interface.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  sql,
  uniquePrefix,
} from './support/backends.js';

// memory.max_conversations on the shared backends (issue 26): at most that many conversations
// per key prefix / table, the least recently used deleted first, whatever number of store
// objects (each its own connection or pool, like separate processes) write at once.

const message = (content: string): MemoryMessage => ({
  role: 'user',
  content,
  timestamp: new Date().toISOString(),
});

interface Backend {
  name: 'redis' | 'postgres';
  make(prefix: string, maxConversations: number, ttlSeconds?: number): MemoryStore;
  /** User ids whose history exists in the backend under `prefix`. */
  stored(prefix: string): Promise<string[]>;
  /** How many histories exist under `prefix`, counted at one instant. */
  storedNow(prefix: string): Promise<number>;
  /** Conversations the backend's bookkeeping counts (Redis: the index; PostgreSQL: `lru` rows). */
  indexed(prefix: string): Promise<number>;
  cleanup(prefix: string): Promise<void>;
}

const redis = new Redis(REDIS_URL);

const backends: Backend[] = [
  {
    name: 'redis',
    make: (prefix, maxConversations, ttlSeconds) =>
      new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix, maxConversations, ttlSeconds }),
    stored: async (prefix) => {
      const users: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:memory:*`, 'COUNT', 1000);
        cursor = next;
        users.push(...keys.map((key) => key.slice(`${prefix}:memory:`.length)));
      } while (cursor !== '0');
      return users;
    },
    // KEYS inside a script: one atomic count (SCAN could see a key both before and after a write).
    storedNow: async (prefix) =>
      Number(await redis.eval("return #redis.call('KEYS', ARGV[1])", 0, `${prefix}:memory:*`)),
    indexed: (prefix) => redis.zcard(`${prefix}:memory-lru`),
    cleanup: (prefix) => deleteRedisKeys(`${prefix}:`),
  },
  {
    name: 'postgres',
    // touchAfterMs 0: every read and write records its use, so the order below is exact.
    make: (prefix, maxConversations, ttlSeconds) =>
      new PostgresMemoryStore({
        url: POSTGRES_URL,
        keyPrefix: prefix,
        maxConversations,
        ttlSeconds,
        touchAfterMs: 0,
      }),
    stored: async (prefix) =>
      (await sql<{ user_id: string }>(`SELECT DISTINCT user_id FROM "${prefix}_memory"`)).map(
        (row) => row.user_id,
      ),
    storedNow: async (prefix) =>
      Number(
        (
          await sql<{ n: string }>(
            `SELECT count(DISTINCT user_id)::text AS n FROM "${prefix}_memory"`,
          )
        )[0]?.n,
      ),
    indexed: async (prefix) =>
      Number(
        (await sql<{ n: string }>(`SELECT count(*)::text AS n FROM "${prefix}_memory_lru"`))[0]?.n,
      ),
    cleanup: (prefix) => dropTable(`${prefix}_memory`),
  },
];

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, i) => from + i);

afterAll(() => redis.disconnect());

describe.each(backends)('$name memory: at most max_conversations conversations', (backend) => {
  const prefixes: string[] = [];
  const stores: MemoryStore[] = [];
  const fresh = (maxConversations: number, ttlSeconds?: number) => {
    const prefix = uniquePrefix(`maxconv_${backend.name}`);
    prefixes.push(prefix);
    const store = backend.make(prefix, maxConversations, ttlSeconds);
    stores.push(store);
    return { prefix, store };
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    for (const prefix of prefixes) await backend.cleanup(prefix);
  });

  it('keeps the 50 most recently written of 200 conversations', async () => {
    const { prefix, store } = fresh(50);
    for (const n of range(0, 200)) await store.append(`user-${n}`, message(`to ${n}`));
    const kept = (await backend.stored(prefix)).sort();
    expect(kept).toEqual(
      range(150, 200)
        .map((n) => `user-${n}`)
        .sort(),
    );
    expect(await backend.indexed(prefix)).toBe(50);
    expect(await store.list('user-149')).toEqual([]);
    expect((await store.list('user-150')).map((m) => m.content)).toEqual(['to 150']);
  });

  it('keeps a conversation read or written recently and drops the least recently used', async () => {
    const { prefix, store } = fresh(50);
    for (const n of range(0, 50)) await store.append(`user-${n}`, message(`to ${n}`));
    await store.list('user-0'); // read: now the most recently used
    await store.append('user-1', message('again')); // written again: likewise
    for (const n of range(50, 60)) await store.append(`user-${n}`, message(`to ${n}`));
    const kept = new Set(await backend.stored(prefix));
    expect(kept.size).toBe(50);
    expect(kept.has('user-0')).toBe(true);
    expect(kept.has('user-1')).toBe(true);
    // The 10 new conversations pushed out the 10 least recently used: users 2 to 11.
    for (const n of range(2, 12)) expect(kept.has(`user-${n}`)).toBe(false);
    expect(kept.has('user-12')).toBe(true);
    expect((await store.list('user-1')).map((m) => m.content)).toEqual(['to 1', 'again']);
  });

  it('never holds more than the bound while two stores write new conversations at once', async () => {
    const { prefix, store: first } = fresh(50);
    const second = backend.make(prefix, 50);
    stores.push(second);
    const perStore = 300;
    const inFlight = 10;
    await first.list('creates-the-table');
    let writing = true;
    const samples: number[] = [];
    const sampler = (async () => {
      while (writing) samples.push(await backend.storedNow(prefix));
    })();
    // Each store: `inFlight` lanes, each writing its own new conversations one after another.
    const write = (store: MemoryStore, tag: string) =>
      Promise.all(
        range(0, inFlight).map(async (lane) => {
          for (let n = lane; n < perStore; n += inFlight) {
            await store.appendMany(`${tag}-${n}`, [message('q'), message('a')]);
          }
        }),
      );
    await Promise.all([write(first, 'a'), write(second, 'b')]);
    writing = false;
    await sampler;
    expect(samples.length).toBeGreaterThan(0);
    // Redis: each write and its eviction are one script, so no instant ever exceeds the bound.
    // PostgreSQL: a new conversation is committed, then its eviction runs, so the excess at an
    // instant is at most the writes between those two steps (both stores' lanes).
    const slack = backend.name === 'redis' ? 0 : 2 * inFlight;
    expect(Math.max(...samples)).toBeLessThanOrEqual(50 + slack);
    // Once every write has returned, exactly the bound is left, with whole histories.
    const kept = await backend.stored(prefix);
    expect(kept).toHaveLength(50);
    expect(await backend.indexed(prefix)).toBe(50);
    for (const user of kept) expect(await first.list(user)).toHaveLength(2);
  });

  it('leaves another prefix alone and keeps TTL behaviour', async () => {
    const { prefix: mine, store } = fresh(5, 3600);
    const { prefix: theirs, store: other } = fresh(5, 3600);
    for (const n of range(0, 5)) await other.append(`theirs-${n}`, message('kept'));
    for (const n of range(0, 40)) await store.append(`mine-${n}`, message('churn'));
    expect((await backend.stored(theirs)).sort()).toEqual(range(0, 5).map((n) => `theirs-${n}`));
    expect(await backend.stored(mine)).toHaveLength(5);
    if (backend.name === 'redis') {
      const ttl = await redis.pttl(`${mine}:memory:mine-39`);
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
    }
  });

  it('forgets a cleared conversation in its bookkeeping too', async () => {
    const { prefix, store } = fresh(3);
    for (const n of range(0, 3)) await store.append(`user-${n}`, message('x'));
    await store.clear('user-0');
    expect(await backend.indexed(prefix)).toBe(2);
    await store.append('user-3', message('x')); // fits: nothing else is dropped
    expect((await backend.stored(prefix)).sort()).toEqual(['user-1', 'user-2', 'user-3']);
  });

  it('is what createMemoryStore builds from memory.max_conversations', async () => {
    const prefix = uniquePrefix(`maxconv_${backend.name}_factory`);
    prefixes.push(prefix);
    const store = createMemoryStore({
      backend: backend.name,
      max_history: 10,
      max_conversations: 2,
      redis_url: REDIS_URL,
      postgres_url: POSTGRES_URL,
      key_prefix: prefix,
    });
    stores.push(store);
    for (const user of ['a', 'b', 'c']) await store.append(user, message('x'));
    expect((await backend.stored(prefix)).sort()).toEqual(['b', 'c']);
  });

  it.each([0, 2.5, -1])('refuses max_conversations %p', (value) => {
    expect(() => backend.make('unused', value)).toThrow(ConfigError);
    expect(() => backend.make('unused', value)).toThrow(
      `memory.max_conversations must be a positive integer (got ${value})`,
    );
  });
});

describe('PostgreSQL memory: a table from before max_conversations', () => {
  const prefix = uniquePrefix('maxconv_pg_upgrade');
  afterAll(() => dropTable(`${prefix}_memory`));

  it('counts the conversations already stored and bounds them from the next new one', async () => {
    const table = `"${prefix}_memory"`;
    await sql(`CREATE TABLE ${table} (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id TEXT NOT NULL,
      role TEXT NOT NULL, content TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)`);
    for (const n of range(0, 8)) {
      await sql(
        `INSERT INTO ${table} (user_id, role, content, created_at)
                 VALUES ($1, 'user', 'old', now() - make_interval(mins => $2))`,
        [`old-${n}`, 60 - n],
      );
    }
    const store = new PostgresMemoryStore({
      url: POSTGRES_URL,
      keyPrefix: prefix,
      maxConversations: 5,
    });
    try {
      expect(await store.list('old-7')).toHaveLength(1);
      await store.append('new', message('x'));
      const users = await sql<{ user_id: string }>(`SELECT DISTINCT user_id FROM ${table}`);
      // 9 conversations, 5 allowed: the 4 with the oldest newest message go.
      expect(users.map((row) => row.user_id).sort()).toEqual([
        'new',
        'old-4',
        'old-5',
        'old-6',
        'old-7',
      ]);
    } finally {
      await store.close();
    }
  });
});
