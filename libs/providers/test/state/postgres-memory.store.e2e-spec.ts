import { afterAll, describe, expect, it } from '@jest/globals';
import { MemoryUnavailableError } from '../../src/memory/memory-unavailable.error.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { StoreConversationMemory } from '../../src/memory/conversation-memory.js';
import { POSTGRES_URL, dropTable, sql, uniquePrefix } from './support/backends.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { eventually, freePort, timed } from './support/timing.js';

const FAST_MS = 3000;
const pgTarget = (() => {
  const url = new URL(POSTGRES_URL);
  return { host: url.hostname, port: Number(url.port || 5432) };
})();
const viaPort = (port: number) => {
  const url = new URL(POSTGRES_URL);
  url.host = `127.0.0.1:${port}`;
  return url.toString();
};

describe('PostgresMemoryStore', () => {
  const tables: string[] = [];
  const prefixFor = (label: string) => {
    const prefix = uniquePrefix(label);
    tables.push(`${prefix}_memory`);
    return prefix;
  };
  afterAll(async () => {
    for (const table of tables) await dropTable(table);
  });

  it('creates its table and (user, id) index on first use, even with four stores racing', async () => {
    const prefix = prefixFor('race');
    const stores = Array.from(
      { length: 4 },
      () => new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix }),
    );
    try {
      await Promise.all(
        stores.map((store, n) => new StoreConversationMemory(store, 'u').add('user', `from ${n}`)),
      );
      expect(await stores[0].list('u')).toHaveLength(4);
      const indexes = await sql<{ indexdef: string }>(
        'SELECT indexdef FROM pg_indexes WHERE tablename = $1',
        [`${prefix}_memory`],
      );
      expect(indexes.map((i) => i.indexdef).join('\n')).toContain('(user_id, id)');
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('answers 503 fast when pointed at a closed port, naming host but not password', async () => {
    const port = await freePort();
    const store = new PostgresMemoryStore({
      url: `postgres://app:hunter2-secret@127.0.0.1:${port}/test`,
      keyPrefix: prefixFor('closed'),
    });
    try {
      const { ms, error } = await timed(store.list('alice'));
      expect(error).toBeInstanceOf(MemoryUnavailableError);
      expect((error as MemoryUnavailableError).statusCode).toBe(503);
      expect((error as Error).message).toBe(
        `Memory backend unavailable: postgres at 127.0.0.1:${port}/test (ECONNREFUSED)`,
      );
      expect(ms).toBeLessThan(FAST_MS);
    } finally {
      await store.close();
    }
  });

  it('fails fast while the server is cut off and heals by itself when it is back', async () => {
    const port = await freePort();
    const proxy = new TcpProxy(port, pgTarget);
    await proxy.open();
    const store = new PostgresMemoryStore({ url: viaPort(port), keyPrefix: prefixFor('outage') });
    const memory = new StoreConversationMemory(store, 'alice');
    try {
      await memory.add('user', 'before');
      await proxy.cut();
      for (const call of [() => memory.add('user', 'during'), () => memory.toDictList()]) {
        const { ms, error } = await timed<unknown>(call());
        expect(error).toBeInstanceOf(MemoryUnavailableError);
        expect((error as Error).message).toContain(`postgres at 127.0.0.1:${port}/`);
        expect(ms).toBeLessThan(FAST_MS);
      }
      await proxy.open();
      await eventually(() => memory.add('user', 'after'));
      expect((await memory.toDictList()).map((m) => m.content)).toEqual(['before', 'after']);
    } finally {
      await store.close();
      await proxy.cut();
    }
  });

  it('retries table creation after a failed first attempt', async () => {
    const port = await freePort();
    const proxy = new TcpProxy(port, pgTarget);
    const store = new PostgresMemoryStore({ url: viaPort(port), keyPrefix: prefixFor('late') });
    try {
      await expect(store.list('alice')).rejects.toBeInstanceOf(MemoryUnavailableError);
      await proxy.open();
      expect(await eventually(() => store.list('alice'))).toEqual([]);
    } finally {
      await store.close();
      await proxy.cut();
    }
  });

  it('returns the newest max_history messages and trims older rows in batches', async () => {
    const prefix = prefixFor('trim');
    const store = new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix, maxHistory: 3 });
    try {
      const memory = new StoreConversationMemory(store, 'alice');
      for (let n = 0; n < 40; n += 1) await memory.add('user', `m${n}`);
      expect((await memory.toDictList()).map((m) => m.content)).toEqual(['m37', 'm38', 'm39']);
      // A trim runs on every 16th insert, so at most max_history + 15 rows remain, never old ones.
      const rows = await sql<{ content: string }>(
        `SELECT content FROM "${prefix}_memory" ORDER BY id`,
      );
      expect(rows.length).toBeLessThanOrEqual(3 + 15);
      expect(rows.map((r) => Number(r.content.slice(1))).every((n) => n >= 40 - 18)).toBe(true);
    } finally {
      await store.close();
    }
  });
  it('upgrades a table made by the previous schema (no tools column) and keeps its rows', async () => {
    const prefix = prefixFor('upgrade');
    const table = `"${prefix}_memory"`;
    await sql(`CREATE TABLE ${table} (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id TEXT NOT NULL,
      role TEXT NOT NULL, content TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL, metadata JSONB)`);
    await sql(
      `INSERT INTO ${table} (user_id, role, content, created_at) VALUES ('alice', 'user', 'old', now())`,
    );
    const store = new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix });
    try {
      const memory = new StoreConversationMemory(store, 'alice');
      const tools = [{ id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5 }];
      await memory.addTurn('2+3?', '5', { tools });
      const history = await memory.toDictList();
      expect(history.map((m) => [m.content, m.tools])).toEqual([
        ['old', undefined],
        ['2+3?', undefined],
        ['5', tools],
      ]);
    } finally {
      await store.close();
    }
  });
});
