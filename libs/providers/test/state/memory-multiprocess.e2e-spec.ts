import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createMemoryStore } from '../../src/memory/memory-store.factory.js';
import type { MemoryBackend } from '../../src/memory/memory-store.interface.js';
import type { MemoryMessage } from '../../src/memory/memory-message.js';
import {
  POSTGRES_URL,
  REDIS_URL,
  deleteRedisKeys,
  dropTable,
  uniquePrefix,
} from './support/backends.js';

const WORKER = fileURLToPath(new URL('./fixtures/memory-worker.mjs', import.meta.url));
const BUILT = fileURLToPath(
  new URL('../../../../dist/libs/providers/src/index.js', import.meta.url),
);
const PER_PROCESS = 500;

interface Job {
  mode: 'write' | 'read';
  backend: MemoryBackend;
  prefix: string;
  userId: string;
  maxHistory: number;
  count?: number;
  tag?: string;
  /** Writers at once in the process, each writing its sequence in order. */
  lanes?: number;
}

interface Written {
  written: number;
  /** Epoch milliseconds (sub-ms precision) of the first write and after the last. */
  startedAt: number;
  endedAt: number;
}

/** Runs the worker as its own Node process and parses the JSON line it prints. */
function runWorker<T>(job: Job): Promise<T> {
  const payload = JSON.stringify({ ...job, redisUrl: REDIS_URL, postgresUrl: POSTGRES_URL });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [WORKER, payload], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`worker failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}

/**
 * Starts the worker with a start barrier: it connects, says it is ready and waits. Resolves to
 * a `go` that releases it and the promise of its result.
 */
function startWorker(job: Job): Promise<{ go(): void; result: Promise<Written> }> {
  const payload = JSON.stringify({
    ...job,
    barrier: true,
    redisUrl: REDIS_URL,
    postgresUrl: POSTGRES_URL,
  });
  const child = spawn(process.execPath, [WORKER, payload], { stdio: ['pipe', 'pipe', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Array<(line: Record<string, unknown>) => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    let end: number;
    while ((end = stdout.indexOf('\n')) >= 0) {
      const line = stdout.slice(0, end);
      stdout = stdout.slice(end + 1);
      lines.shift()?.(JSON.parse(line) as Record<string, unknown>);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const nextLine = () =>
    Promise.race([
      new Promise<Record<string, unknown>>((resolve) => lines.push(resolve)),
      exited.then((code) => {
        throw new Error(`worker exited with ${code}: ${stderr}`);
      }),
    ]);
  return nextLine().then((ready) => {
    if (ready.ready !== true) throw new Error(`worker not ready: ${JSON.stringify(ready)}`);
    const result = nextLine().finally(() => clearTimeout(killer)) as Promise<unknown>;
    return { go: () => child.stdin.end('go\n'), result: result as Promise<Written> };
  });
}

/** Starts both workers' writes at the same moment (both connected and waiting first). */
async function runTogether(jobs: Job[]): Promise<Written[]> {
  const workers = await Promise.all(jobs.map(startWorker));
  for (const worker of workers) worker.go();
  const results = await Promise.all(workers.map((w) => w.result));
  // The writes really overlapped in time: each started before the other ended.
  const [a, b] = results;
  expect(a.startedAt).toBeLessThan(b.endedAt);
  expect(b.startedAt).toBeLessThan(a.endedAt);
  return results;
}

beforeAll(() => {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run \`npm run build\` first`);
});

describe.each<{ backend: MemoryBackend; cleanup: (prefix: string) => Promise<void> }>([
  { backend: 'redis', cleanup: (prefix) => deleteRedisKeys(`${prefix}:`) },
  { backend: 'postgres', cleanup: (prefix) => dropTable(`${prefix}_memory`) },
])('two Node processes sharing $backend', ({ backend, cleanup }) => {
  const prefix = uniquePrefix(`multi_${backend}`);
  const settings = {
    backend,
    max_history: 2000,
    redis_url: REDIS_URL,
    postgres_url: POSTGRES_URL,
    key_prefix: prefix,
  };

  afterAll(() => cleanup(prefix));

  it(`loses nothing when each adds ${PER_PROCESS} messages at the same moment for one user`, async () => {
    const job = { mode: 'write', backend, prefix, userId: 'shared', maxHistory: 2000 } as const;
    const results = await runTogether([
      { ...job, count: PER_PROCESS, tag: 'A' },
      { ...job, count: PER_PROCESS, tag: 'B' },
    ]);
    expect(results.map((r) => r.written)).toEqual([PER_PROCESS, PER_PROCESS]);

    const store = createMemoryStore(settings);
    try {
      const history = await store.list('shared');
      const contents = history.map((m) => m.content);
      expect(history).toHaveLength(2 * PER_PROCESS);
      const expected = ['A', 'B'].flatMap((tag) =>
        Array.from({ length: PER_PROCESS }, (_, n) => `${tag}-${n}`),
      );
      expect(new Set(contents)).toEqual(new Set(expected));
    } finally {
      await store.close();
    }
  });

  it('trims to exactly max_history 50 under contention, losing and repeating nothing it keeps', async () => {
    const LANES = 8;
    const PER_LANE = 40;
    const job = { mode: 'write', backend, prefix, userId: 'tight', maxHistory: 50 } as const;
    await runTogether([
      { ...job, count: PER_LANE, lanes: LANES, tag: 'A' },
      { ...job, count: PER_LANE, lanes: LANES, tag: 'B' },
    ]);

    const store = createMemoryStore({ ...settings, max_history: 50 });
    try {
      const contents = (await store.list('tight')).map((m) => m.content);
      expect(contents).toHaveLength(50);
      expect(new Set(contents).size).toBe(50);
      // Each lane wrote its sequence in order, so what the window keeps of a lane is a suffix of
      // it, ending with the lane's last write unless newer writes pushed the lane out entirely:
      // a gap would be a message lost inside the window.
      const byLane = new Map<string, number[]>();
      for (const text of contents) {
        const [, lane, n] = /^([AB]\d+)-(\d+)(?:-[qa])?$/.exec(text) ?? [];
        expect({ text, lane }).toEqual({ text, lane: expect.any(String) });
        byLane.set(lane, [...(byLane.get(lane) ?? []), Number(n)]);
      }
      for (const [lane, ns] of byLane) {
        const unique = [...new Set(ns)];
        const first = unique[0];
        expect({ lane, ns: unique }).toEqual({
          lane,
          ns: Array.from({ length: PER_LANE - first }, (_, i) => first + i),
        });
      }
      // Turns stay whole and adjacent: a question is followed by its answer (the window may only
      // cut the oldest turn, leaving its answer first).
      contents.forEach((text, i) => {
        if (text.endsWith('-q')) expect(contents[i + 1]).toBe(text.replace(/-q$/, '-a'));
        if (text.endsWith('-a') && i > 0) expect(contents[i - 1]).toBe(text.replace(/-a$/, '-q'));
      });
    } finally {
      await store.close();
    }
  });

  it('reads in one process the history another process wrote', async () => {
    const base = { backend, prefix, userId: 'handoff', maxHistory: 2000 };
    await runWorker({ ...base, mode: 'write', count: 3, tag: 'first-process' });
    const { history } = await runWorker<{ history: MemoryMessage[] }>({ ...base, mode: 'read' });
    expect(history.map((m) => m.content).sort()).toEqual([
      'first-process-0',
      'first-process-1',
      'first-process-2',
    ]);
    for (const m of history) expect(m.role).toBe('user');
  });
});
