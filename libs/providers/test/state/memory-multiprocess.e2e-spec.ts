import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
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

  it(`loses nothing when each adds ${PER_PROCESS} messages concurrently for one user`, async () => {
    const job = { mode: 'write', backend, prefix, userId: 'shared', maxHistory: 2000 } as const;
    const results = await Promise.all([
      runWorker<{ written: number }>({ ...job, count: PER_PROCESS, tag: 'A' }),
      runWorker<{ written: number }>({ ...job, count: PER_PROCESS, tag: 'B' }),
    ]);
    expect(results).toEqual([{ written: PER_PROCESS }, { written: PER_PROCESS }]);

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
