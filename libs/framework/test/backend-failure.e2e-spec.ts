/**
 * Bad ids and backends down, as clients and operators see them: a user id with NUL or another
 * control character is a 422 naming the parameter on every memory backend (PostgreSQL once
 * answered a NUL with a 500 carrying its own error text); a memory backend that cannot be reached
 * is a 503 saying which kind of backend, never its address, and the log has one line per failure
 * (with the address), the stack only at debug level. Runs on Express and Fastify.
 */
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import type { LogLevel } from '@nestjs/common';
import { App } from 'toolkit';
import { ServiceUnavailableError } from 'toolkit/providers';
import { TestClient } from 'toolkit/testing';
import {
  dropTable,
  POSTGRES_URL,
  uniquePrefix,
} from '../../providers/test/state/support/backends.js';
import { freePort } from '../../providers/test/state/support/timing.js';

type Memory = NonNullable<NonNullable<ConstructorParameters<typeof App>[0]>['config']>['memory'];

const apps: App[] = [];

function rememberApp(memory: Memory, logger: LogLevel[] = ['error', 'warn']): TestClient {
  const app = new App({ logger, cwd: '/nonexistent', config: { memory } });
  app.route(
    '/remember',
    { methods: ['POST'], params: { user_id: 'string', message: 'string' } },
    async ({ user_id, message }) => {
      const memory = app.memory(user_id);
      await memory.add('user', message);
      return { count: (await memory.toDictList()).length };
    },
  );
  apps.push(app);
  return new TestClient(app);
}

/** Everything the app writes on stdout and stderr while `run` runs, one entry per line. */
async function logLines(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const capture = (chunk: unknown): boolean => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((line) => line.trim() !== ''),
    );
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines;
}

afterEach(() => {
  jest.restoreAllMocks();
});

afterAll(async () => {
  for (const app of apps) await app.close();
});

describe.each([
  ['memory', () => ({ backend: 'memory' as const })],
  [
    'postgres',
    () => ({
      backend: 'postgres' as const,
      postgres_url: POSTGRES_URL,
      key_prefix: uniquePrefix('ids'),
    }),
  ],
])('user ids on the %s backend', (_backend, settings) => {
  const memory = settings();
  const client = rememberApp(memory);

  afterAll(async () => {
    if (memory.backend === 'postgres') await dropTable(`${memory.key_prefix}_memory`);
  });

  it('answers a NUL in user_id with a 422 naming user_id', async () => {
    const res = await client.post('/remember', { json: { user_id: 'a\u0000b', message: 'hi' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'Invalid parameters: user_id must not contain NUL (\\u0000) characters',
      details: [{ param: 'user_id', problem: 'must not contain NUL (\\u0000) characters' }],
    });
  });

  it.each([
    ['another control character', 'a\u0001b'],
    ['an escape', 'a\u001bb'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('answers %s in the id with a 422 naming the id', async (_what, id) => {
    const res = await client.post('/remember', { json: { user_id: id, message: 'hi' } });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ details: { param: string }[] }>().details).toEqual([
      expect.objectContaining({ param: 'userId' }),
    ]);
  });

  it('still stores an ordinary id of any script', async () => {
    const res = await client.post('/remember', { json: { user_id: 'zoë/日本', message: 'hi' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('a memory backend that cannot be reached', () => {
  it.each([
    ['redis', 'Redis', (port: number) => ({ redis_url: `redis://127.0.0.1:${port}` })],
    [
      'postgres',
      'PostgreSQL',
      (port: number) => ({ postgres_url: `postgres://app:s3cret@127.0.0.1:${port}/test` }),
    ],
  ] as const)(
    '%s: a 503 naming the kind of backend, and one log line with its address',
    async (backend, kind, url) => {
      const port = await freePort();
      const client = rememberApp({ backend, timeout: 1, ...url(port) });
      let status = 0;
      let body = '';
      const lines = await logLines(async () => {
        const res = await client.post('/remember', { json: { user_id: 'u1', message: 'hi' } });
        status = res.statusCode;
        body = res.text();
      });
      expect(status).toBe(503);
      expect(JSON.parse(body)).toEqual({ error: `The ${kind} memory backend is unavailable` });
      expect(body).not.toContain('127.0.0.1');
      expect(body).not.toContain(String(port));
      const failures = lines.filter((line) => line.includes('→ 503'));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain(`127.0.0.1:${port}`);
      expect(lines.join('\n')).not.toContain('s3cret');
      expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
    },
  );

  it('logs the stack at debug level', async () => {
    const port = await freePort();
    const client = rememberApp(
      { backend: 'redis', timeout: 1, redis_url: `redis://127.0.0.1:${port}` },
      ['error', 'warn', 'debug'],
    );
    const lines = await logLines(async () => {
      await client.post('/remember', { json: { user_id: 'u1', message: 'hi' } });
    });
    expect(lines.filter((line) => line.includes('→ 503'))).toHaveLength(1);
    expect(lines.some((line) => /^\s+at /.test(line))).toBe(true);
  });
});

describe('a stream whose backend fails after it began', () => {
  it('logs the failure in one line, no stack, when it is a toolkit error', async () => {
    const app = new App({ logger: ['error', 'warn'], cwd: '/nonexistent' });
    app.route('/ticks', { stream: true }, async function* () {
      yield 'first';
      await Promise.resolve();
      throw new ServiceUnavailableError('The Redis memory backend is unavailable');
    });
    apps.push(app);
    const client = new TestClient(app);
    let body = '';
    const lines = await logLines(async () => {
      body = (await client.get('/ticks')).text();
    });
    expect(body).toContain('data: first');
    expect(body).toMatch(/event: error\ndata: \{"error":"The Redis memory backend is unavailable"/);
    const failures = lines.filter((line) => line.includes('Stream failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('The Redis memory backend is unavailable');
    expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
  });
});
