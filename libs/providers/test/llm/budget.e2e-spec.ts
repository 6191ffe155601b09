import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BudgetExceededError } from '../../src/llm/cost/budget-exceeded.error.js';
import { SpendLedger } from '../../src/llm/cost/spend-ledger.js';
import { LLM } from '../../src/llm/llm.js';
import { InMemoryMemoryStore } from '../../src/memory/in-memory-memory.store.js';
import type { MemoryStore } from '../../src/memory/memory-store.interface.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  uniquePrefix,
} from '../state/support/backends.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { rejection } from './llm-test.helpers.js';

interface Backend {
  label: string;
  open(prefix: string): MemoryStore;
  cleanup(prefix: string): Promise<void>;
}

const backends: Backend[] = [
  {
    label: 'redis',
    open: (prefix) => new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix }),
    cleanup: (prefix) => deleteRedisKeys(`${prefix}:`),
  },
  {
    label: 'postgres',
    open: (prefix) => new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix }),
    cleanup: (prefix) => dropTable(`${prefix}_memory`),
  },
];

// gpt-4o-mini at $0.15 / $0.60 per 1M tokens: 1M input tokens cost $0.15.
const PRICEY = { kind: 'reply' as const, text: 'ok', usage: { input: 1_000_000, output: 0 } };

describe.each(backends)('per-user daily budget on $label, shared by two processes', (backend) => {
  let server: FakeLlmServer;
  let prefix: string;
  let stores: MemoryStore[];
  let first: LLM;
  let second: LLM;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    prefix = uniquePrefix('budget');
    stores = [backend.open(prefix), backend.open(prefix)];
    // Two LLMs with their own store connections: what two app processes have.
    [first, second] = stores.map(
      (store) =>
        new LLM('gpt-4o-mini', {
          apiKey: 'sk-test',
          baseURL: server.openaiBaseURL,
          budget: { perUserUsdPerDay: 0.25, store },
        }),
    );
  });
  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await backend.cleanup(prefix);
  });

  it('refuses a call that would start past the budget with 429 and Retry-After to 00:00 UTC', async () => {
    server.script(PRICEY, PRICEY, PRICEY, PRICEY);
    await first.chat('one', { userId: 'ada' }); // $0.15
    await second.chat('two', { userId: 'ada' }); // $0.30: past $0.25 once it is done
    const error = await rejection(first.chat('three', { userId: 'ada' }));
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toMatchObject({ statusCode: 429 });
    const retryAfter = Number((error as BudgetExceededError).headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(server.requests).toHaveLength(2);
    // Another user, and calls without a user, are not limited.
    expect(await second.chat('hi', { userId: 'bob' })).toBe('ok');
    expect(await second.chat('hi')).toBe('ok');
  });

  it('counts streamed calls, and refuses structured calls too', async () => {
    server.script({ ...PRICEY, text: undefined, chunks: ['o', 'k'] }, PRICEY);
    const chunks: string[] = [];
    for await (const c of await first.chat('x', { userId: 'eve', stream: true })) chunks.push(c);
    expect(chunks).toEqual(['o', 'k']);
    await first.chat('y', { userId: 'eve' });
    const ledger = new SpendLedger(stores[1], 0.25);
    expect(await ledger.spent('eve')).toBeCloseTo(0.3, 9);
    const refused = await rejection(
      second.generateObject('z', { schema: { type: 'object' }, userId: 'eve' }),
    );
    expect(refused).toBeInstanceOf(BudgetExceededError);
  });
});

describe('spend ledger', () => {
  it('keeps the day total once the history would drop entries', async () => {
    const store = new InMemoryMemoryStore({ maxHistory: 4 });
    const ledger = new SpendLedger(store, 100, () => new Date('2026-01-01T23:59:30Z'));
    for (let i = 0; i < 10; i++) await ledger.record('u', 1);
    expect(await ledger.spent('u')).toBe(10);
    const late = new SpendLedger(store, 10, () => new Date('2026-01-01T23:59:30Z'));
    const error = await rejection(late.check('u'));
    expect((error as BudgetExceededError).headers['Retry-After']).toBe('30');
    const nextDay = new SpendLedger(store, 10, () => new Date('2026-01-02T00:00:01Z'));
    await expect(nextDay.check('u')).resolves.toBeUndefined();
    await store.close();
  });

  it('refuses a budget that is not a non-negative number', () => {
    const store = new InMemoryMemoryStore();
    expect(
      () => new LLM('echo', { budget: { perUserUsdPerDay: '5' as unknown as number, store } }),
    ).toThrow(
      /budget.perUserUsdPerDay must be a non-negative number of USD \(got "5"\) in new LLM\(\)/,
    );
    expect(() => new LLM('echo', { prices: { 'gpt-x': { input: -1, output: 1 } } })).toThrow(
      /prices.gpt-x.input must be a non-negative number/,
    );
  });
});
