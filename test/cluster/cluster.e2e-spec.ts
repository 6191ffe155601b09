/**
 * The deployed shape: three app processes behind nginx (round robin, the configuration the docs
 * recommend) sharing Redis for memory, cache and resumable streams. A conversation continues
 * whichever process answers; a MISS on one process is a HIT on the others; a stream survives a
 * dropped connection and resumes through another process; under load one process is killed and
 * no message is lost or duplicated, and every request not in flight on it succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { SseParser, type SseEvent } from 'toolkit/testing';
import { startBalancer, type Balancer } from './support/nginx.js';

const APP = fileURLToPath(new URL('./fixtures/cluster.app.mjs', import.meta.url));
const API_APP = fileURLToPath(new URL('./fixtures/api.app.ts', import.meta.url));
const PREFIX = `cluster-test-${process.pid}-${Date.now()}`;
const redis = new Redis('redis://127.0.0.1:6379');

interface AppProcess {
  child: ChildProcess;
  port: number;
}

async function startApp(
  script: string[] = [APP],
  env: Record<string, string> = {},
): Promise<AppProcess> {
  const child = spawn(process.execPath, script, {
    env: { ...process.env, PREFIX, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /^READY (\d+)$/.exec(line);
    if (match) return { child, port: Number(match[1]) };
  }
  throw new Error('an app process exited before it was ready');
}

async function kill(app: AppProcess): Promise<void> {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return;
  app.child.kill('SIGKILL');
  await once(app.child, 'exit');
}

let apps: AppProcess[] = [];
let balancer: Balancer;
let base: string;

beforeAll(async () => {
  apps = await Promise.all([startApp(), startApp(), startApp()]);
  balancer = await startBalancer(apps.map((a) => a.port));
  base = `http://127.0.0.1:${balancer.port}`;
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all(apps.map(kill));
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

async function chat(userId: string, message: string) {
  const res = await fetch(`${base}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: userId, message }),
  });
  return { status: res.status, body: (await res.json()) as { response: string; pid: number } };
}

async function history(userId: string): Promise<Array<{ role: string; content: string }>> {
  const res = await fetch(`${base}/history?user_id=${encodeURIComponent(userId)}`);
  return ((await res.json()) as { messages: Array<{ role: string; content: string }> }).messages;
}

interface Reading {
  status: number;
  streamId: string;
  events: SseEvent[];
}

/** Reads a stream through nginx, dropping the connection after `stopAfter` events. */
function readStream(path: string, lastEventId?: string, stopAfter?: number): Promise<Reading> {
  return new Promise((resolve, reject) => {
    const parser = new SseParser();
    const events: SseEvent[] = [];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const req = request(`${base}${path}`, { method: 'POST', headers, agent: false }, (res) => {
      const done = (): void =>
        resolve({
          status: res.statusCode ?? 0,
          streamId: String(res.headers['x-stream-id']),
          events,
        });
      res.on('data', (chunk: Buffer) => {
        events.push(...parser.feed(chunk));
        if (stopAfter !== undefined && events.length >= stopAfter) {
          events.splice(stopAfter);
          req.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', () => undefined);
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end('{}');
  });
}

describe('three processes behind nginx, sharing Redis', () => {
  it('balances round robin over all three', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 6; i += 1) {
      pids.add(((await (await fetch(`${base}/whoami`)).json()) as { pid: number }).pid);
    }
    expect(pids).toEqual(new Set(apps.map((a) => a.child.pid)));
  });

  it('continues a conversation whichever process answers', async () => {
    const answeredBy = new Set<number>();
    for (let turn = 1; turn <= 6; turn += 1) {
      const { status, body } = await chat('ana', `message ${turn}`);
      expect(status).toBe(200);
      answeredBy.add(body.pid);
    }
    expect(answeredBy.size).toBe(3);
    const messages = await history('ana');
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `message ${n}`),
    );
    expect(messages).toHaveLength(12);
  });

  it('serves a MISS on one process as a HIT on the others', async () => {
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${base}/summary?text=shared`);
      answers.push({ cache: res.headers.get('x-cache'), body: (await res.json()) as object });
    }
    expect(answers.map((a) => a.cache)).toEqual(['MISS', 'HIT', 'HIT']);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await redis.get(`${PREFIX}:summary-runs`)).toBe('1');
  });

  it('resumes a dropped stream through another process, missing nothing', async () => {
    const first = await readStream('/story?count=25', undefined, 5);
    expect(first.events.map((e) => e.data)).toEqual([1, 2, 3, 4, 5].map((i) => `part ${i}`));
    // Round robin sends the reconnect to another process than the one producing.
    const reconnectAt = performance.now();
    const rest = await readStream('/story?count=25', first.events[4]?.id, 1);
    const resumedMs = performance.now() - reconnectAt;
    process.stdout.write(
      `cluster resume: first missed event ${resumedMs.toFixed(1)} ms after reconnecting\n`,
    );
    const tail = await readStream('/story?count=25', rest.events[0]?.id);
    rest.events.push(...tail.events);
    expect(rest.status).toBe(200);
    expect(rest.events.map((e) => e.data)).toEqual(
      Array.from({ length: 20 }, (_, i) => `part ${i + 6}`),
    );
  });

  it('tells a resuming client, promptly, when the producing process died mid-answer', async () => {
    const first = await readStream('/story?count=400', undefined, 3);
    const producerPid = Number(await redis.get(`${PREFIX}:story-pid`));
    const victim = apps.find((a) => a.child.pid === producerPid);
    expect(victim).toBeDefined();
    await kill(victim!);
    const rest = await readStream('/story?count=400', first.events[2]?.id);
    expect(rest.status).toBe(200);
    const last = rest.events.at(-1);
    expect(last?.event).toBe('error');
    expect(JSON.parse(last?.data ?? '{}')).toEqual({
      error: 'The process producing this stream stopped before the end; start a new one',
    });
    // Everything recorded before the process died is delivered, in order, once.
    const parts = rest.events.slice(0, -1).map((e) => Number(e.data.replace('part ', '')));
    expect(parts).toEqual(parts.map((_, i) => i + 4));
  }, 30_000);
});

describe('one of three processes killed under load', () => {
  const TOTAL = 2000;
  const CONCURRENCY = 50;
  const USERS = 100;
  let cluster: AppProcess[] = [];
  let lb: Balancer;

  beforeAll(async () => {
    cluster = await Promise.all([startApp(), startApp(), startApp()]);
    lb = await startBalancer(cluster.map((a) => a.port));
  }, 60_000);

  afterAll(async () => {
    await lb?.stop();
    await Promise.all(cluster.map(kill));
  });

  it('loses and duplicates no message; only requests in flight on it fail', async () => {
    const url = `http://127.0.0.1:${lb.port}`;
    const outcome = new Map<number, 'ok' | 'failed'>();
    const inFlight = new Set<number>();
    let inFlightAtKill = new Set<number>();
    let next = 0;
    let finished = 0;
    let killed: Promise<void> | undefined;
    let dying = false;
    const send = async (i: number): Promise<void> => {
      inFlight.add(i);
      // Sent while the process is being killed: it may be the one that gets it.
      if (dying) inFlightAtKill.add(i);
      try {
        const res = await fetch(`${url}/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user_id: `load-${i % USERS}`, message: `m${i}` }),
        });
        await res.arrayBuffer();
        outcome.set(i, res.status === 200 ? 'ok' : 'failed');
      } catch {
        outcome.set(i, 'failed');
      } finally {
        inFlight.delete(i);
        finished += 1;
        if (finished === TOTAL / 4 && !killed) {
          inFlightAtKill = new Set(inFlight);
          dying = true;
          killed = kill(cluster[1]);
          await killed;
          dying = false;
        }
      }
    };
    const lanes = Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) await send(next++);
    });
    const startedAt = Date.now();
    await Promise.all(lanes);
    const seconds = (Date.now() - startedAt) / 1000;

    const failed = [...outcome].filter(([, o]) => o === 'failed').map(([i]) => i);
    // Requests that were not in flight when the process died all succeeded.
    expect(failed.filter((i) => !inFlightAtKill.has(i))).toEqual([]);

    let lost = 0;
    let duplicated = 0;
    let committedFailures = 0;
    for (let u = 0; u < USERS; u += 1) {
      const messages = await history(`load-${u}`);
      const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
      duplicated += users.length - new Set(users).size;
      // Every user message is followed by its answer: turns are committed whole.
      messages.forEach((m, k) => {
        if (m.role === 'user') expect(messages[k + 1]?.role).toBe('assistant');
      });
      for (let i = u; i < TOTAL; i += USERS) {
        const kept = users.includes(`m${i}`);
        if (outcome.get(i) === 'ok' && !kept) lost += 1;
        if (outcome.get(i) === 'failed' && kept) committedFailures += 1;
      }
    }
    process.stdout.write(
      `cluster load: ${TOTAL} requests at concurrency ${CONCURRENCY} in ${seconds.toFixed(1)} s, ` +
        `${failed.length} failed (all in flight on the killed process: ${inFlightAtKill.size} were), ` +
        `${lost} lost, ${duplicated} duplicated, ${committedFailures} failed requests whose turn was committed\n`,
    );
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(outcome.size).toBe(TOTAL);
  }, 120_000);
});

describe("the api template's rate limit across three processes", () => {
  const API_KEY = 'cluster-key-0123456789';
  const LIMIT = 12;
  let cluster: AppProcess[] = [];
  let lb: Balancer;

  beforeAll(async () => {
    const env = {
      API_KEYS: API_KEY,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      PREFIX: `${PREFIX}-api`,
    };
    const script = ['--import', 'toolkit/register', API_APP];
    cluster = await Promise.all([1, 2, 3].map(() => startApp(script, env)));
    lb = await startBalancer(cluster.map((a) => a.port));
  }, 60_000);

  afterAll(async () => {
    await lb?.stop();
    await Promise.all(cluster.map(kill));
  });

  it('allows the limit in all, not the limit per process', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT * 2; i += 1) {
      const res = await fetch(`http://127.0.0.1:${lb.port}/complete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({ prompt: `request ${i}` }),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Round robin spread them over the three processes; the count is shared in Redis.
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual(Array.from({ length: LIMIT }, () => 429));
  });
});
