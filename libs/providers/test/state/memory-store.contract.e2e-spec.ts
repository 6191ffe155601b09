import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { ToolkitError } from '../../src/errors/toolkit.error.js';
import { InMemoryMemoryStore } from '../../src/memory/in-memory-memory.store.js';
import { InvalidMessageError } from '../../src/memory/invalid-message.error.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import { StoreConversationMemory } from '../../src/memory/conversation-memory.js';
import { createMemoryStore } from '../../src/memory/memory-store.factory.js';
import type { MemoryMessage, MemoryRole } from '../../src/memory/memory-message.js';
import type { MemoryStore } from '../../src/memory/memory-store.interface.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  uniquePrefix,
} from './support/backends.js';

/** How to build and clean up one backend; the same contract runs against each. */
interface Backend {
  name: 'memory' | 'redis' | 'postgres';
  /** Whether a second store object on the same prefix sees the same histories. */
  shared: boolean;
  make(prefix: string, maxHistory: number): MemoryStore;
  cleanup(prefix: string): Promise<void>;
}

const backends: Backend[] = [
  {
    name: 'memory',
    shared: false,
    make: (_prefix, maxHistory) => new InMemoryMemoryStore({ maxHistory }),
    cleanup: () => Promise.resolve(),
  },
  {
    name: 'redis',
    shared: true,
    make: (prefix, maxHistory) =>
      new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix, maxHistory }),
    cleanup: (prefix) => deleteRedisKeys(`${prefix}:`),
  },
  {
    name: 'postgres',
    shared: true,
    make: (prefix, maxHistory) =>
      new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix, maxHistory }),
    cleanup: (prefix) => dropTable(`${prefix}_memory`),
  },
];

const UNICODE =
  'Grüße, 世界! 😀👩‍👩‍👧 שלום مرحبا e\u0301 "quotes" \\back\\slash\nnew\r\nlines\ttab \u2028 \uFFFF 𝄞';

describe.each(backends)('MemoryStore contract: $name', (backend) => {
  const prefix = uniquePrefix(`contract_${backend.name}`);
  const open: MemoryStore[] = [];
  let clock = Date.parse('2025-06-01T10:00:00.000Z');
  const now = () => new Date((clock += 1000));

  const store = (maxHistory = 100): MemoryStore => {
    const created = backend.make(prefix, maxHistory);
    open.push(created);
    return created;
  };
  const memoryOf = (s: MemoryStore, userId: string) =>
    new StoreConversationMemory(s, userId, { now });
  const contents = (list: MemoryMessage[]) => list.map((m) => m.content);

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => backend.cleanup(prefix));

  it('adds, lists oldest first with ISO-8601 timestamps, and clears', async () => {
    const memory = memoryOf(store(), 'add-list-clear');
    const first = await memory.add('system', 'You are terse.');
    const second = await memory.add('user', 'Hello');
    const third = await memory.add('assistant', 'Hi.');
    const history = await memory.toDictList();
    expect(history).toEqual([first, second, third]);
    for (const m of history) expect(new Date(m.timestamp).toISOString()).toBe(m.timestamp);
    await memory.clear();
    expect(await memory.toDictList()).toEqual([]);
  });

  it('keeps insertion order over many messages', async () => {
    const memory = memoryOf(store(), 'ordering');
    const expected = Array.from({ length: 40 }, (_, i) => `message ${i}`);
    for (const text of expected) await memory.add(i(text), text);
    expect(contents(await memory.toDictList())).toEqual(expected);

    function i(text: string): MemoryRole {
      return Number(text.split(' ')[1]) % 2 === 0 ? 'user' : 'assistant';
    }
  });

  it('keeps only the newest max_history messages and honours list limits', async () => {
    const s = store(5);
    const memory = memoryOf(s, 'trim');
    for (let n = 1; n <= 12; n += 1) await memory.add('user', `m${n}`);
    expect(contents(await memory.toDictList())).toEqual(['m8', 'm9', 'm10', 'm11', 'm12']);
    expect(contents(await s.list('trim', 3))).toEqual(['m10', 'm11', 'm12']);
    expect(contents(await s.list('trim', 50))).toHaveLength(5);
    expect(await s.list('trim', 0)).toEqual([]);
  });

  it('loses nothing under 200 concurrent adds and trims exactly under contention', async () => {
    const roomy = memoryOf(store(1000), 'concurrent');
    await Promise.all(Array.from({ length: 200 }, (_, n) => roomy.add('user', `c${n}`)));
    const all = contents(await roomy.toDictList());
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);

    const tight = memoryOf(store(10), 'concurrent-tight');
    await Promise.all(Array.from({ length: 100 }, (_, n) => tight.add('user', `t${n}`)));
    expect(await tight.toDictList()).toHaveLength(10);
  });

  it('isolates users, including ids with separators and quotes', async () => {
    const s = store();
    const ids = ['alice', 'alice:2', "bob'; DROP TABLE x; --", 'ünï cödé 👤', 'a*b?[c]'];
    for (const id of ids) await memoryOf(s, id).add('user', `for ${id}`);
    for (const id of ids) expect(contents(await s.list(id))).toEqual([`for ${id}`]);
    await memoryOf(s, 'alice').clear();
    expect(await s.list('alice')).toEqual([]);
    expect(contents(await s.list('alice:2'))).toEqual(['for alice:2']);
  });

  it('stores unicode and a 100 KB message intact', async () => {
    const memory = memoryOf(store(), 'unicode');
    const big = Array.from({ length: 102_400 / UNICODE.length + 1 }, () => UNICODE)
      .join('|')
      .slice(0, 102_400);
    await memory.add('user', UNICODE);
    await memory.add('assistant', big);
    await memory.add('user', '');
    const history = await memory.toDictList();
    expect(history.map((m) => m.content)).toEqual([UNICODE, big, '']);
    expect(history[1].content.length).toBe(102_400);
  });

  it('rejects bad roles and content with a 422 and stores nothing', async () => {
    const s = store();
    const memory = memoryOf(s, 'invalid');
    const bad: Array<[unknown, unknown]> = [
      ['bot', 'hi'],
      ['USER', 'hi'],
      [undefined, 'hi'],
      ['user', 42],
      ['user', { text: 'hi' }],
      ['user', null],
    ];
    for (const [role, content] of bad) {
      const error = await memory
        .add(role as MemoryRole, content as string)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect(ToolkitError.isInstance(error) && error.statusCode).toBe(422);
    }
    const direct = { role: 'wizard', content: 'x', timestamp: new Date().toISOString() };
    await expect(s.append('invalid', direct as unknown as MemoryMessage)).rejects.toThrow(
      'role must be one of user, assistant, system',
    );
    await expect(
      s.append('invalid', { role: 'user', content: 'x', timestamp: 'yesterday' }),
    ).rejects.toThrow('timestamp must be an ISO-8601 string');
    expect(await s.list('invalid')).toEqual([]);
  });

  it('shares histories between store objects when the backend is shared', async () => {
    await memoryOf(store(), 'shared').add('user', 'written by one');
    const other = store();
    const seen = contents(await other.list('shared'));
    expect(seen).toEqual(backend.shared ? ['written by one'] : []);
  });

  it('is what createMemoryStore builds for this backend', async () => {
    const built = createMemoryStore({
      backend: backend.name,
      max_history: 7,
      redis_url: REDIS_URL,
      postgres_url: POSTGRES_URL,
      key_prefix: prefix,
    });
    open.push(built);
    expect(built.backend).toBe(backend.name);
    expect(built.maxHistory).toBe(7);
    await memoryOf(built, 'factory').add('user', 'via factory');
    expect(contents(await built.list('factory'))).toEqual(['via factory']);
  });
});
