/**
 * `@Cache` single-flight across processes on the Redis backend: three app processes receiving
 * the same cold key at once run the handler once, and the others answer HITs with its result; a
 * holder that dies mid-run frees the key by its lock's time to live and one waiter takes over.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

const APP = fileURLToPath(new URL('./fixtures/cluster-cache.app.mjs', import.meta.url));
const redis = new Redis('redis://127.0.0.1:6379');
/** This file's keys: the same file runs at once in the express and fastify projects. */
const RUN = `cluster-cache-test:${process.pid}`;
const running: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  port: number;
}

async function startApp(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [APP], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.push(child);
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /^READY (\d+)$/.exec(line);
    if (match) return { child, port: Number(match[1]) };
  }
  throw new Error('the app exited before it was ready');
}

async function summary(port: number, text: string) {
  const res = await fetch(`http://127.0.0.1:${port}/summary?text=${encodeURIComponent(text)}`);
  return { status: res.status, cache: res.headers.get('x-cache'), body: await res.json() };
}

async function runs(prefix: string): Promise<number> {
  return Number((await redis.get(`${prefix}:runs`)) ?? 0);
}

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
});

afterAll(async () => {
  const keys = await redis.keys(`${RUN}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('@Cache single-flight across processes (Redis)', () => {
  it('runs the handler once for concurrent cold misses on three processes', async () => {
    const prefix = `${RUN}:${Date.now()}`;
    const apps = await Promise.all([1, 2, 3].map(() => startApp({ PREFIX: prefix })));
    const answers = await Promise.all(
      apps.flatMap(({ port }) => [1, 2, 3, 4].map(() => summary(port, 'the same cold key'))),
    );
    expect(await runs(prefix)).toBe(1);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const bodies = new Set(answers.map((a) => JSON.stringify(a.body)));
    expect(bodies.size).toBe(1);
    expect(answers.filter((a) => a.cache === 'MISS')).toHaveLength(1);
    expect(answers.filter((a) => a.cache === 'HIT')).toHaveLength(11);

    // A different key is its own flight; the first one is a plain HIT now, everywhere.
    const other = await summary(apps[1].port, 'another key');
    expect(other.cache).toBe('MISS');
    expect(await runs(prefix)).toBe(2);
    expect((await summary(apps[2].port, 'the same cold key')).cache).toBe('HIT');
  });

  it('lets a waiter take over when the holder dies, after the lock time to live', async () => {
    const prefix = `${RUN}:${Date.now()}:dies`;
    const holder = await startApp({ PREFIX: prefix, HANDLER_MS: '60000', LOCK_TTL: '0.6' });
    const [b, c] = await Promise.all([
      startApp({ PREFIX: prefix, LOCK_TTL: '0.6' }),
      startApp({ PREFIX: prefix, LOCK_TTL: '0.6' }),
    ]);
    const abandoned = summary(holder.port, 'key of the dead').catch(() => 'connection lost');
    for (let i = 0; i < 200 && (await runs(prefix)) === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await runs(prefix)).toBe(1);
    const waiting = Promise.all([
      summary(b.port, 'key of the dead'),
      summary(c.port, 'key of the dead'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    holder.child.kill('SIGKILL');
    expect(await abandoned).toBe('connection lost');
    const [fromB, fromC] = await waiting;
    expect(await runs(prefix)).toBe(2);
    expect(fromB.status).toBe(200);
    expect(fromB.body).toEqual(fromC.body);
    expect([fromB.cache, fromC.cache].sort()).toEqual(['HIT', 'MISS']);
  });
});
