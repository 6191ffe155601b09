import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, HealthController } from 'toolkit';
import { TestClient, type TestResponse } from 'toolkit/testing';
import { BlackHoleProxy } from '../../providers/test/state/support/black-hole-proxy.js';
import { dropTable, deleteRedisKeys } from '../../providers/test/state/support/backends.js';
import { freePort } from '../../providers/test/state/support/timing.js';

/** Repeats a request until `done` holds (bounded), for recovery once the backend answers. */
async function eventually(
  request: () => Promise<TestResponse>,
  done: (r: TestResponse) => boolean,
): Promise<TestResponse> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await request();
    if (done(res) || Date.now() > deadline) return res;
    await sleep(100);
  }
}

async function timedRequest(request: Promise<TestResponse>): Promise<[TestResponse, number]> {
  const started = performance.now();
  const res = await request;
  return [res, performance.now() - started];
}

/** Seconds each backend may take (`memory.timeout`, `cache.timeout`). */
const TIMEOUT = 1;

interface Case {
  memory: 'redis' | 'postgres';
  target: { host: string; port: number };
}

const cases: Case[] = [
  { memory: 'redis', target: { host: '127.0.0.1', port: 6379 } },
  { memory: 'postgres', target: { host: '127.0.0.1', port: 5432 } },
];

describe.each(cases)('a $memory memory backend (and a Redis cache) that never answers', (c) => {
  const prefix = `tk_blackhole_${c.memory}_${process.pid}`;
  let memoryProxy: BlackHoleProxy;
  let cacheProxy: BlackHoleProxy;
  let app: App;
  let client: TestClient;
  let handlerRuns = 0;
  const timings: string[] = [];

  beforeAll(async () => {
    memoryProxy = new BlackHoleProxy(await freePort(), c.target);
    cacheProxy = new BlackHoleProxy(await freePort(), { host: '127.0.0.1', port: 6379 });
    await Promise.all([memoryProxy.open(), cacheProxy.open()]);
    const memoryUrl =
      c.memory === 'redis'
        ? `redis://127.0.0.1:${memoryProxy.port}`
        : `postgres://postgres@127.0.0.1:${memoryProxy.port}/test`;
    app = new App({
      logger: false,
      cwd: '/nonexistent',
      controllers: [HealthController],
      config: {
        memory: {
          backend: c.memory,
          redis_url: memoryUrl,
          postgres_url: memoryUrl,
          key_prefix: prefix,
          timeout: TIMEOUT,
        },
        cache: {
          backend: 'redis',
          redis_url: `redis://127.0.0.1:${cacheProxy.port}`,
          key_prefix: `${prefix}:cache:`,
          timeout: TIMEOUT,
        },
      },
    });
    app.route(
      '/remember',
      { methods: ['POST'], params: { user_id: 'string', message: 'string' } },
      async ({ user_id, message }) => {
        const memory = app.memory(user_id);
        await memory.addTurn(message, `echo ${message}`);
        return { count: (await memory.toDictList()).length };
      },
    );
    app.route(
      '/cached',
      { methods: ['POST'], params: { text: 'string' }, cache: { ttl: 60 } },
      ({ text }) => ({ text, runs: ++handlerRuns }),
    );
    client = new TestClient(app);
  });

  afterAll(async () => {
    memoryProxy.answer();
    cacheProxy.answer();
    await app.close();
    await Promise.all([memoryProxy.close(), cacheProxy.close()]);
    await (c.memory === 'redis' ? deleteRedisKeys(`${prefix}:`) : dropTable(`${prefix}_memory`));
    await deleteRedisKeys(`${prefix}:cache:`);
    process.stdout.write(`black hole (${c.memory}, timeout ${TIMEOUT} s): ${timings.join('; ')}\n`);
  });

  const remember = (message: string) =>
    client.post('/remember', { json: { user_id: 'u1', message } });
  const cached = (text: string) => client.post('/cached', { json: { text } });

  it('answers 503 on memory routes and runs cached routes uncached, then recovers', async () => {
    expect((await remember('one')).json()).toEqual({ count: 2 });
    await cached('a');
    expect((await cached('a')).headers['x-cache']).toBe('HIT');

    memoryProxy.hole();
    cacheProxy.hole();

    const [down, downMs] = await timedRequest(remember('two'));
    expect(down.statusCode).toBe(503);
    expect(down.json<{ error: string }>().error).toMatch(new RegExp(c.memory, 'i'));
    const [again, againMs] = await timedRequest(remember('two'));
    expect(again.statusCode).toBe(503);
    const runsBefore = handlerRuns;
    const [uncached, uncachedMs] = await timedRequest(cached('a'));
    expect(uncached.statusCode).toBe(200);
    expect(uncached.json()).toMatchObject({ text: 'a' });
    expect(handlerRuns).toBe(runsBefore + 1);
    const [ready, readyMs] = await timedRequest(client.get('/health/ready'));
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'unavailable',
      backends: {
        memory: { backend: c.memory, status: 'down' },
        cache: { backend: 'redis', status: 'down' },
      },
    });
    expect((await client.get('/health')).statusCode).toBe(200);
    timings.push(
      `memory route 503 after ${Math.round(downMs)} ms, then ${Math.round(againMs)} ms`,
      `cached route 200 uncached after ${Math.round(uncachedMs)} ms`,
      `/health/ready 503 after ${Math.round(readyMs)} ms`,
    );

    memoryProxy.answer();
    cacheProxy.answer();

    const started = performance.now();
    const back = await eventually(
      () => remember('three'),
      (r) => r.statusCode === 200,
    );
    expect(back.statusCode).toBe(200);
    // Nothing of the refused turn was stored: one turn before, one after.
    expect(back.json()).toEqual({ count: 4 });
    const cachedAgain = await eventually(
      () => cached('b').then(() => cached('b')),
      (r) => r.headers['x-cache'] === 'HIT',
    );
    expect(cachedAgain.headers['x-cache']).toBe('HIT');
    expect((await client.get('/health/ready')).json()).toEqual({
      status: 'ready',
      backends: {
        memory: { backend: c.memory, status: 'up' },
        cache: { backend: 'redis', status: 'up' },
      },
    });
    timings.push(`recovered in ${Math.round(performance.now() - started)} ms`);
  });

  it('answers 503 when the backend never answered since start-up', async () => {
    memoryProxy.hole();
    const fresh = new App({
      logger: false,
      cwd: '/nonexistent',
      config: {
        memory: {
          backend: c.memory,
          redis_url: `redis://127.0.0.1:${memoryProxy.port}`,
          postgres_url: `postgres://postgres@127.0.0.1:${memoryProxy.port}/test`,
          key_prefix: prefix,
          timeout: TIMEOUT,
        },
      },
    });
    fresh.route('/history', { methods: ['GET'] }, async () => ({
      history: await fresh.memory('u2').toDictList(),
    }));
    const freshClient = new TestClient(fresh);
    try {
      const [res, ms] = await timedRequest(freshClient.get('/history'));
      expect(res.statusCode).toBe(503);
      timings.push(`never-answering from the start: 503 after ${Math.round(ms)} ms`);
      memoryProxy.answer();
      const back = await eventually(
        () => freshClient.get('/history'),
        (r) => r.statusCode === 200,
      );
      expect(back.json()).toEqual({ history: [] });
    } finally {
      memoryProxy.answer();
      await fresh.close();
    }
  });
});
