import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { App } from 'toolkit';
import { TestClient, type TestResponse } from 'toolkit/testing';
import { RedisServerProcess } from '../../providers/test/state/support/redis-server.process.js';
import { freePort } from '../../providers/test/state/support/timing.js';

/** Repeats a request until `done` holds (bounded), for recovery after a restart. */
async function eventually(
  request: () => Promise<TestResponse>,
  done: (r: TestResponse) => boolean,
): Promise<TestResponse> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await request();
    if (done(res) || Date.now() > deadline) return res;
    await sleep(200);
  }
}

describe('a Redis outage while the app runs', () => {
  let redis: RedisServerProcess;
  let port: number;
  let app: App;
  let client: TestClient;
  let handlerRuns = 0;

  beforeAll(async () => {
    port = await freePort();
    redis = await RedisServerProcess.start(port);
    const url = `redis://127.0.0.1:${port}`;
    const prefix = `tk_outage_${process.pid}`;
    app = new App({
      logger: false,
      cwd: '/nonexistent',
      config: {
        memory: { backend: 'redis', redis_url: url, key_prefix: prefix },
        cache: { backend: 'redis', redis_url: url, key_prefix: `${prefix}:cache:` },
      },
    });
    app.route(
      '/remember',
      { methods: ['POST'], params: { user_id: 'string', message: 'string' } },
      async ({ user_id, message }) => {
        const memory = app.memory(user_id);
        await memory.add('user', message);
        return { count: (await memory.toDictList()).length };
      },
    );
    app.route(
      '/cached',
      { methods: ['POST'], params: { text: 'string' }, cache: { ttl: 60 } },
      ({ text }) => ({
        text,
        runs: ++handlerRuns,
      }),
    );
    client = new TestClient(app);
  });

  afterAll(async () => {
    await app.close();
    await redis.kill();
  });

  it('answers 503 on memory routes, keeps cached routes up uncached, and recovers by itself', async () => {
    expect(
      (await client.post('/remember', { json: { user_id: 'u1', message: 'one' } })).json(),
    ).toEqual({ count: 1 });
    await client.post('/cached', { json: { text: 'a' } });
    expect((await client.post('/cached', { json: { text: 'a' } })).headers['x-cache']).toBe('HIT');

    await redis.kill();

    const down = await client.post('/remember', { json: { user_id: 'u1', message: 'two' } });
    expect(down.statusCode).toBe(503);
    expect(down.json<{ error: string }>().error).toMatch(/redis/i);
    const uncached = await client.post('/cached', { json: { text: 'a' } });
    expect(uncached.statusCode).toBe(200);
    expect(uncached.json()).toMatchObject({ text: 'a' });
    const runsDuringOutage = handlerRuns;
    expect(runsDuringOutage).toBeGreaterThanOrEqual(2);

    redis = await RedisServerProcess.start(port);

    const back = await eventually(
      () => client.post('/remember', { json: { user_id: 'u1', message: 'three' } }),
      (r) => r.statusCode === 200,
    );
    expect(back.statusCode).toBe(200);
    // The restarted server kept nothing (no persistence): the history starts again.
    expect(back.json<{ count: number }>().count).toBeGreaterThanOrEqual(1);
    const cachedAgain = await eventually(
      () =>
        client
          .post('/cached', { json: { text: 'b' } })
          .then(() => client.post('/cached', { json: { text: 'b' } })),
      (r) => r.headers['x-cache'] === 'HIT',
    );
    expect(cachedAgain.headers['x-cache']).toBe('HIT');
  });
});
