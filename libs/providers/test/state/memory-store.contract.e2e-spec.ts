import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { ToolkitError } from '../../src/errors/toolkit.error.js';
import { InMemoryMemoryStore } from '../../src/memory/in-memory-memory.store.js';
import { InvalidMessageError } from '../../src/memory/invalid-message.error.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import { StoreConversationMemory } from '../../src/memory/conversation-memory.js';
import { createMemoryStore } from '../../src/memory/memory-store.factory.js';
import type { MemoryMessage, MemoryRole, ToolStep } from '../../src/memory/memory-message.js';
import type { MemoryStore } from '../../src/memory/memory-store.interface.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  redisCommand,
  sql,
  uniquePrefix,
} from './support/backends.js';

/** How to build and clean up one backend; the same contract runs against each. */
interface Backend {
  name: 'memory' | 'redis' | 'postgres';
  /** Whether a second store object on the same prefix sees the same histories. */
  shared: boolean;
  make(prefix: string, maxHistory: number): MemoryStore;
  cleanup(prefix: string): Promise<void>;
  /**
   * A store on the same histories whose backend refuses a write partway through (PostgreSQL: the
   * row with content `poison` of a multi-row INSERT; Redis: the LTRIM queued after the RPUSH of
   * the same transaction), and its undo. Absent
   * for the in-process store, which has no failure point after validation.
   */
  poisoned?(
    prefix: string,
    maxHistory: number,
  ): Promise<{ store: MemoryStore; undo(): Promise<void> }>;
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
    // A user without LTRIM: the transaction's RPUSH is queued, its LTRIM refused, so EXEC aborts.
    poisoned: async (prefix, maxHistory) => {
      const user = `${prefix}_noltrim`;
      const password = `pw_${prefix}`;
      await redisCommand(
        'ACL',
        'SETUSER',
        user,
        'reset',
        'on',
        `>${password}`,
        '~*',
        '+@all',
        '-ltrim',
      );
      const url = REDIS_URL.replace('redis://', `redis://${user}:${password}@`);
      return {
        store: new RedisMemoryStore({ url, keyPrefix: prefix, maxHistory }),
        undo: () => redisCommand('ACL', 'DELUSER', user).then(() => undefined),
      };
    },
  },
  {
    name: 'postgres',
    shared: true,
    make: (prefix, maxHistory) =>
      new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix, maxHistory }),
    cleanup: (prefix) => dropTable(`${prefix}_memory`),
    // A CHECK constraint refusing one row of the multi-row INSERT.
    poisoned: async (prefix, maxHistory) => {
      const store = new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix, maxHistory });
      await store.list('creates-the-table');
      const table = `"${prefix}_memory"`;
      await sql(`ALTER TABLE ${table} ADD CONSTRAINT no_poison CHECK (content <> 'poison')`);
      return {
        store,
        undo: () => sql(`ALTER TABLE ${table} DROP CONSTRAINT no_poison`).then(() => undefined),
      };
    },
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

  it('stores a turn (user then assistant) with one call, metadata and all', async () => {
    const s = store();
    const memory = memoryOf(s, 'turn');
    const turn = await memory.addTurn('What is 2+2?', '4.');
    expect(turn.map((m) => [m.role, m.content, m.metadata])).toEqual([
      ['user', 'What is 2+2?', undefined],
      ['assistant', '4.', undefined],
    ]);
    const stopped = await memory.addTurn('Tell me a story', 'Once upon a', { interrupted: true });
    expect(stopped[1].metadata).toEqual({ interrupted: true });
    const history = await memory.toDictList();
    expect(history).toEqual([...turn, ...stopped]);
    expect('metadata' in history[0]).toBe(false);
    expect(history[3]).toEqual({
      role: 'assistant',
      content: 'Once upon a',
      timestamp: stopped[1].timestamp,
      metadata: { interrupted: true },
    });
  });

  it('round-trips any plain JSON metadata through appendMany', async () => {
    const s = store();
    const timestamp = new Date().toISOString();
    const metadata = {
      interrupted: false,
      model: 'gpt-4o-mini',
      usage: { input: 12, output: 3.5 },
      tags: ['a', 'ü 😀', null, [true]],
      nothing: null,
    };
    await s.appendMany('meta', [
      { role: 'system', content: 'sys', timestamp },
      { role: 'assistant', content: 'with', timestamp, metadata },
      { role: 'user', content: 'empty', timestamp, metadata: {} },
    ]);
    const [first, second, third] = await s.list('meta');
    expect(first).toEqual({ role: 'system', content: 'sys', timestamp });
    expect(second.metadata).toEqual(metadata);
    expect(third.metadata).toEqual({});
    await s.appendMany('meta', []);
    expect(await s.list('meta')).toHaveLength(3);
  });

  it('refuses bad metadata and bad turns with a 422 and stores no part of the batch', async () => {
    const s = store();
    const timestamp = new Date().toISOString();
    const ok: MemoryMessage = { role: 'user', content: 'fine', timestamp };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad: unknown[] = [
      [],
      'interrupted',
      new Date(),
      new Map(),
      { score: Number.NaN },
      { when: new Date() },
      { nul: 'a\u0000b' },
      { big: 'x'.repeat(20_000) },
      { f: () => 1 },
      cyclic,
    ];
    for (const metadata of bad) {
      const error = await s
        .appendMany('bad-meta', [ok, { ...ok, metadata } as unknown as MemoryMessage])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect(String((error as Error).message)).toContain('messages[1].metadata');
    }
    await expect(
      s.appendMany('bad-meta', [
        ok,
        { role: 'bot', content: 'x', timestamp } as unknown as MemoryMessage,
      ]),
    ).rejects.toThrow('messages[1].role must be one of');
    await expect(s.appendMany('bad-meta', 'nope' as unknown as MemoryMessage[])).rejects.toThrow(
      'messages must be an array',
    );
    const memory = memoryOf(s, 'bad-meta');
    await expect(memory.addTurn('hi', 42 as unknown as string)).rejects.toThrow(
      InvalidMessageError,
    );
    await expect(
      memory.addTurn('hi', 'there', { interrupted: 'yes' as unknown as boolean }),
    ).rejects.toThrow('interrupted must be a boolean');
    expect(await s.list('bad-meta')).toEqual([]);
  });

  it('stores a turn with its tool steps and returns them unchanged', async () => {
    const s = store();
    const memory = memoryOf(s, 'tools');
    const tools: ToolStep[] = [
      { id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 },
      { id: 'c2', name: 'lookup', args: 'not json', error: 'unknown tool "lookup"', step: 1 },
      {
        id: 'c3',
        name: 'search',
        args: { q: UNICODE, n: [1, 2.5, null] },
        result: { hits: [] },
        step: 2,
      },
    ];
    const turn = await memory.addTurn('2+3, then search', 'It is 5.', { tools });
    expect(turn[0].tools).toBeUndefined();
    expect(turn[1].tools).toEqual(tools);
    const stopped = await memory.addTurn('again', 'Half', {
      interrupted: true,
      tools: [{ id: 'c4', name: 'calculator', args: {}, error: 'interrupted' }],
    });
    const history = await memory.toDictList();
    expect(history).toEqual([...turn, ...stopped]);
    expect('tools' in history[0]).toBe(false);
    expect(history[3]).toMatchObject({ metadata: { interrupted: true }, tools: [{ id: 'c4' }] });
    await memory.addTurn('no tools', 'plain', { tools: [] });
    expect('tools' in (await s.list('tools')).at(-1)!).toBe(false);
  });

  it('cuts tool results past the 64 KB bound with a marker, and refuses bad steps with a 422', async () => {
    const s = store();
    const memory = memoryOf(s, 'tools-bound');
    const big = 'é'.repeat(70_000);
    const [, answer] = await memory.addTurn('fetch', 'Done.', {
      tools: [{ id: 'c1', name: 'fetch', args: { url: 'x' }, result: big }],
    });
    const result = answer.tools?.[0].result as string;
    expect(result.length).toBeLessThan(400);
    expect(result).toMatch(/^"é+… \[truncated: 70002 characters\]$/);
    expect((await s.list('tools-bound'))[1].tools).toEqual(answer.tools);

    const bad: Array<[unknown, string]> = [
      ['nope', 'tools must be an array'],
      [[{ id: '', name: 'x', args: {} }], 'tools[0].id must be a non-empty string'],
      [[{ id: 'a', name: 'x' }], 'tools[0].args is required'],
      [[{ id: 'a', name: 'x', args: { d: new Date() } }], 'tools[0].args.d must be a plain object'],
      [[{ id: 'a', name: 'x', args: {}, result: 1, error: 'e' }], 'tools[0].error must not be set'],
      [[{ id: 'a', name: 'x', args: {}, step: 0 }], 'tools[0].step must be a positive integer'],
      [[{ id: 'a', name: 'x', args: {}, extra: 1 }], 'tools[0].extra is not a tool step field'],
      [Array.from({ length: 65 }, (_, n) => ({ id: `c${n}`, name: 'x', args: {} })), 'at most 64'],
    ];
    for (const [tools, message] of bad) {
      const error = await memory
        .addTurn('q', 'a', { tools: tools as ToolStep[] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect(String((error as Error).message)).toContain(message);
    }
    const timestamp = new Date().toISOString();
    const oversized = [{ id: 'c1', name: 'fetch', args: {}, result: 'x'.repeat(70_000) }];
    await expect(
      s.appendMany('tools-bound', [
        { role: 'user', content: 'q', timestamp },
        { role: 'assistant', content: 'a', timestamp, tools: oversized },
      ]),
    ).rejects.toThrow('messages[1].tools must be at most 65536 characters as JSON');
    expect(await s.list('tools-bound')).toHaveLength(2);
  });

  it('trims after a batch to the newest max_history, keeping turns in order', async () => {
    const s = store(5);
    const memory = memoryOf(s, 'turn-trim');
    const tools = (n: number): ToolStep[] => [{ id: `c${n}`, name: 't', args: { n }, result: n }];
    for (let n = 1; n <= 6; n += 1) await memory.addTurn(`q${n}`, `a${n}`, { tools: tools(n) });
    const trimmed = await memory.toDictList();
    expect(contents(trimmed)).toEqual(['a4', 'q5', 'a5', 'q6', 'a6']);
    expect(trimmed.map((m) => m.tools)).toEqual([
      tools(4),
      undefined,
      tools(5),
      undefined,
      tools(6),
    ]);
    await s.appendMany(
      'turn-trim',
      Array.from({ length: 9 }, (_, n) => ({
        role: 'user' as const,
        content: `b${n}`,
        timestamp: new Date().toISOString(),
      })),
    );
    expect(contents(await s.list('turn-trim'))).toEqual(['b4', 'b5', 'b6', 'b7', 'b8']);
  });

  it('never interleaves concurrent turns', async () => {
    const memory = memoryOf(store(1000), 'turn-concurrent');
    await Promise.all(Array.from({ length: 100 }, (_, n) => memory.addTurn(`q${n}`, `a${n}`)));
    const history = contents(await memory.toDictList());
    expect(history).toHaveLength(200);
    for (let i = 0; i < history.length; i += 2) {
      expect(history[i + 1]).toBe(history[i].replace('q', 'a'));
    }
  });

  // The in-process store has no failure point after validation (tested above).
  const poison = backend.poisoned;
  if (poison)
    it('commits no message of a batch the backend refuses part of', async () => {
      const poisoned = await poison(prefix, 100);
      try {
        await memoryOf(store(), 'atomic').add('user', 'before');
        const memory = memoryOf(poisoned.store, 'atomic');
        const error = await memory.addTurn('question', 'poison').catch((e: unknown) => e);
        expect(ToolkitError.isInstance(error)).toBe(true);
        expect(error).not.toBeInstanceOf(InvalidMessageError);
      } finally {
        await poisoned.store.close();
        await poisoned.undo();
      }
      expect(contents(await store().list('atomic'))).toEqual(['before']);
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
