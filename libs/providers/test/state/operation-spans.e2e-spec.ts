/**
 * The spans of the operations around an LLM request — conversation memory, response cache and
 * resumable-stream log — with the real OpenTelemetry SDK and the real backends (in-process,
 * Redis, PostgreSQL): names, kind, parent, attributes, failures, and none while tracing is off.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MemoryCacheStore } from '../../src/cache/memory-cache.store.js';
import { RedisCacheStore } from '../../src/cache/redis-cache.store.js';
import type { CacheStore } from '../../src/cache/cache-store.interface.js';
import { StoreConversationMemory } from '../../src/memory/conversation-memory.js';
import { InMemoryMemoryStore } from '../../src/memory/in-memory-memory.store.js';
import type { MemoryMessage } from '../../src/memory/memory-message.js';
import type { MemoryStore } from '../../src/memory/memory-store.interface.js';
import { MemoryUnavailableError } from '../../src/memory/memory-unavailable.error.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import { MemoryStreamLog } from '../../src/streams/memory-stream-log.js';
import { RedisStreamLog } from '../../src/streams/redis-stream-log.js';
import type { StreamLog } from '../../src/streams/stream-log.interface.js';
import { openTelemetryTracer } from '../../src/telemetry/open-telemetry.tracer.js';
import { installTracer } from '../../src/telemetry/tracing.js';
import { parentId, recordSpans, type SpanRecorder } from '../support/span-recorder.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  uniquePrefix,
} from './support/backends.js';

/** Nothing listens there: every Redis call fails at once. */
const DEAD_REDIS = 'redis://127.0.0.1:1';
const USER = 'user-4711-alice@example.com';
const SECRET_TEXT = 'my card number is 4111 1111 1111 1111';

let recorder: SpanRecorder;
beforeAll(async () => {
  recorder = await recordSpans();
});
afterAll(() => recorder.uninstall());

/** Every attribute value of `spans`, as text (to prove what is never recorded). */
function attributeText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((span) => span.attributes));
}

/** A store that notes the span active when each call reaches it (where a client's own span would go). */
function observed(store: MemoryStore): { store: MemoryStore; active: string[] } {
  const active: string[] = [];
  const note = (): void => void active.push(trace.getActiveSpan()?.spanContext().spanId ?? '');
  const wrapped: MemoryStore = Object.create(store) as MemoryStore;
  wrapped.appendMany = (userId: string, messages: MemoryMessage[]) => {
    note();
    return store.appendMany(userId, messages);
  };
  wrapped.append = (userId: string, message: MemoryMessage) => {
    note();
    return store.append(userId, message);
  };
  wrapped.list = (userId: string, limit?: number) => {
    note();
    return store.list(userId, limit);
  };
  wrapped.clear = (userId: string) => {
    note();
    return store.clear(userId);
  };
  return { store: wrapped, active };
}

const memoryBackends: Array<
  [string, (prefix: string) => MemoryStore, (p: string) => Promise<void>]
> = [
  ['memory', () => new InMemoryMemoryStore(), () => Promise.resolve()],
  [
    'redis',
    (prefix) => new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix }),
    (prefix) => deleteRedisKeys(`${prefix}:`),
  ],
  [
    'postgres',
    (prefix) => new PostgresMemoryStore({ url: POSTGRES_URL, keyPrefix: prefix }),
    (prefix) => dropTable(`${prefix}_memory`),
  ],
];

describe.each(memoryBackends)('conversation memory spans on %s', (backend, make, cleanup) => {
  const prefix = uniquePrefix('spans');
  const real = make(prefix);
  afterAll(async () => {
    await real.close();
    await cleanup(prefix);
  });

  it('are children of the active span, the store runs inside them, and carry counts only', async () => {
    const { store, active } = observed(real);
    const memory = new StoreConversationMemory(store, USER);
    recorder.reset();
    const { value: history, parent } = await recorder.withinParent(async () => {
      await memory.addTurn('hello', SECRET_TEXT, {
        tools: [{ id: 'c1', name: 'lookup', args: { q: 'x' }, result: 1, step: 1 }],
      });
      await memory.add('user', 'again');
      const all = await memory.toDictList();
      await memory.toDictList({ maxTokens: 12 });
      await memory.clear();
      return all;
    });
    expect(history).toHaveLength(3);
    const spans = recorder.spans().filter((span) => span.name.startsWith('toolkit.memory.'));
    expect(spans.map((span) => span.name)).toEqual([
      'toolkit.memory.add',
      'toolkit.memory.add',
      'toolkit.memory.load',
      'toolkit.memory.load',
      'toolkit.memory.clear',
    ]);
    const parentSpanId = parent.spanContext().spanId;
    for (const span of spans) {
      expect(span.kind).toBe(SpanKind.INTERNAL);
      expect(parentId(span)).toBe(parentSpanId);
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(span.attributes['toolkit.memory.backend']).toBe(backend);
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    }
    // The backend call ran with our span active: a client instrumentation's span is its child.
    expect(active).toEqual(spans.map((span) => span.spanContext().spanId));
    expect(spans[0].attributes).toMatchObject({
      'toolkit.memory.messages': 2,
      'toolkit.memory.tool_steps': 1,
    });
    expect(spans[1].attributes['toolkit.memory.messages']).toBe(1);
    expect(spans[2].attributes['toolkit.memory.messages']).toBe(3);
    expect(spans[2].attributes['toolkit.memory.max_tokens']).toBeUndefined();
    expect(spans[3].attributes['toolkit.memory.max_tokens']).toBe(12);
    const kept = spans[3].attributes['toolkit.memory.messages'] as number;
    expect(kept).toBeLessThan(3);
    expect(spans[3].attributes['toolkit.memory.dropped_messages']).toBe(3 - kept);
    const text = attributeText(spans);
    for (const secret of [USER, SECRET_TEXT, 'hello', 'again', 'lookup']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('conversation memory span failures', () => {
  it('an unreachable Redis fails the span with the error type and message', async () => {
    const store = new RedisMemoryStore({ url: DEAD_REDIS, connectTimeoutMs: 2000 });
    try {
      recorder.reset();
      const memory = new StoreConversationMemory(store, USER);
      await expect(memory.toDictList()).rejects.toBeInstanceOf(MemoryUnavailableError);
      const [span] = recorder.named('toolkit.memory.load');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('MemoryUnavailableError');
      expect(span.attributes['toolkit.memory.backend']).toBe('redis');
      expect(span.attributes['toolkit.memory.messages']).toBeUndefined();
      expect(span.events.map((event) => event.name)).toEqual(['exception']);
    } finally {
      await store.close();
    }
  });

  it('an unreachable PostgreSQL fails the span too', async () => {
    const store = new PostgresMemoryStore({
      url: 'postgres://postgres@127.0.0.1:1/test',
      keyPrefix: uniquePrefix('dead'),
      connectTimeoutMs: 2000,
    });
    try {
      recorder.reset();
      const memory = new StoreConversationMemory(store, USER);
      await expect(memory.addTurn('a', 'b')).rejects.toBeInstanceOf(MemoryUnavailableError);
      const [span] = recorder.named('toolkit.memory.add');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('MemoryUnavailableError');
      expect(span.attributes['toolkit.memory.backend']).toBe('postgres');
    } finally {
      await store.close();
    }
  });
});

const cacheBackends: Array<[string, () => CacheStore]> = [
  ['memory', () => new MemoryCacheStore()],
  ['redis', () => new RedisCacheStore({ url: REDIS_URL, keyPrefix: `${uniquePrefix('cache')}:` })],
];

describe.each(cacheBackends)('cache spans on %s', (backend, make) => {
  const store = make();
  afterAll(() => store.close());

  it('tell a miss from a hit, and a set, under the active span', async () => {
    recorder.reset();
    const { parent } = await recorder.withinParent(async () => {
      expect(await store.get('k')).toBeUndefined();
      await store.set('k', { body: SECRET_TEXT }, 30);
      expect(await store.get('k')).toEqual({ body: SECRET_TEXT });
    });
    const gets = recorder.named('toolkit.cache.get');
    const [set] = recorder.named('toolkit.cache.set');
    expect(gets.map((span) => span.attributes['toolkit.cache.hit'])).toEqual([false, true]);
    expect(set.attributes['toolkit.cache.ttl']).toBe(30);
    for (const span of [...gets, set]) {
      expect(span.kind).toBe(SpanKind.INTERNAL);
      expect(parentId(span)).toBe(parent.spanContext().spanId);
      expect(span.attributes['toolkit.cache.backend']).toBe(backend);
    }
    expect(attributeText(recorder.spans())).not.toContain(SECRET_TEXT);
  });
});

describe('cache span failures', () => {
  it('an unreachable Redis fails the get span with the error type', async () => {
    const store = new RedisCacheStore({ url: DEAD_REDIS });
    try {
      recorder.reset();
      await expect(store.get('k')).rejects.toThrow('unavailable');
      const [span] = recorder.named('toolkit.cache.get');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('CacheUnavailableError');
      expect(span.attributes['toolkit.cache.hit']).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

const streamLogs: Array<[string, () => StreamLog]> = [
  ['memory', () => new MemoryStreamLog()],
  ['redis', () => new RedisStreamLog({ url: REDIS_URL, keyPrefix: `${uniquePrefix('log')}:` })],
];

describe.each(streamLogs)('stream log spans on %s', (backend, make) => {
  const log = make();
  afterAll(() => log.close());

  it('trace create and cancel, never the appends of each chunk', async () => {
    recorder.reset();
    const { parent } = await recorder.withinParent(async () => {
      await log.create('s1', 60);
      for (let i = 0; i < 20; i += 1) await log.append('s1', { kind: 'event', data: `${i}` }, 60);
      expect(await log.cancel('s1')).toBe(true);
      expect(await log.cancel('never-made')).toBe(false);
    });
    const ours = recorder.spans().filter((span) => span.name.startsWith('toolkit.'));
    expect(ours.map((span) => span.name)).toEqual([
      'toolkit.stream_log.create',
      'toolkit.stream_log.cancel',
      'toolkit.stream_log.cancel',
    ]);
    expect(ours.map((span) => span.attributes['toolkit.stream_log.found'])).toEqual([
      undefined,
      true,
      false,
    ]);
    for (const span of ours) {
      expect(parentId(span)).toBe(parent.spanContext().spanId);
      expect(span.attributes['toolkit.stream_log.backend']).toBe(backend);
    }
    expect(attributeText(ours)).not.toContain('s1');
  });
});

describe('stream log span failures', () => {
  it('an unreachable Redis fails the create span', async () => {
    const log = new RedisStreamLog({ url: DEAD_REDIS });
    try {
      recorder.reset();
      await expect(log.create('s', 60)).rejects.toThrow('Stream log unavailable');
      const [span] = recorder.named('toolkit.stream_log.create');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('ServiceUnavailableError');
    } finally {
      await log.close();
    }
  });
});

describe('with tracing off', () => {
  it('no span is made, and every operation still works', async () => {
    const prefix = uniquePrefix('off');
    const memoryStore = new RedisMemoryStore({ url: REDIS_URL, keyPrefix: prefix });
    const cache = new RedisCacheStore({ url: REDIS_URL, keyPrefix: `${prefix}:cache:` });
    const log = new MemoryStreamLog();
    installTracer(undefined);
    try {
      recorder.reset();
      const memory = new StoreConversationMemory(memoryStore, USER);
      await memory.addTurn('q', 'a');
      expect(await memory.toDictList()).toHaveLength(2);
      await memory.clear();
      await cache.set('k', 1, 30);
      expect(await cache.get('k')).toBe(1);
      await log.create('s', 60);
      expect(await log.cancel('s')).toBe(true);
      await expect(
        new StoreConversationMemory(new InMemoryMemoryStore(), USER).add('robot' as 'user', 'x'),
      ).rejects.toThrow();
      expect(recorder.spans()).toEqual([]);
    } finally {
      await Promise.all([memoryStore.close(), cache.close(), log.close()]);
      await deleteRedisKeys(`${prefix}:`);
      installTracer(await openTelemetryTracer());
    }
  });
});
