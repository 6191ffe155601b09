/**
 * Folder ingestion on a BullMQ queue: 10,000 generated documents processed by two worker
 * processes into one pgvector store. One worker is killed mid-run and replaced: nothing is lost
 * and nothing is duplicated; identical content is stored once; a corrupt file fails at once
 * with its reason; queuing the folder again adds nothing. Documents/s for 1 and 2 workers are
 * printed (`ingestion: ...`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { IngestionQueue } from '../../src/queue/ingestion-queue.js';
import { stallWatch } from '../../../../test/support/stall-watch.js';
import { dropStoreTables, POSTGRES_URL, uniqueTablePrefix } from '../support/postgres.js';

const WORKER = fileURLToPath(new URL('../fixtures/ingest-worker.mjs', import.meta.url));
const REDIS_URL = 'redis://127.0.0.1:6379';
const DOCUMENTS = 10_000;
const DUPLICATES = 25;
const WORDS = ['policy', 'travel', 'budget', 'holiday', 'laptop', 'contract', 'security', 'office'];

const root = mkdtempSync(join(tmpdir(), 'toolkit-ingest-'));
const workers: ChildProcess[] = [];

/** A note of its own content (about 300 bytes: one chunk). */
function note(n: number): string {
  const words = Array.from({ length: 30 }, (_, i) => WORDS[(n * 7 + i * 3) % WORDS.length]);
  return `# Note ${n}\n\nReference ${n}-${(n * 2654435761) % 1_000_003}. ${words.join(' ')}.\n`;
}

/** Writes `count` notes (and, when asked, duplicates and a corrupt PDF) into a new folder. */
function makeFolder(name: string, count: number, extras: boolean): string {
  const folder = join(root, name);
  for (let n = 0; n < count; n += 1) {
    const sub = join(folder, `part-${Math.floor(n / 1000)}`);
    if (n % 1000 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `note-${n}.md`), note(n));
  }
  if (extras) {
    mkdirSync(join(folder, 'copies'));
    for (let d = 0; d < DUPLICATES; d += 1) {
      writeFileSync(join(folder, 'copies', `copy-of-${d}.md`), note(d * 97));
    }
    writeFileSync(join(folder, 'broken.pdf'), '%PDF-1.4\nthis is not a PDF at all\n');
  }
  return folder;
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.push(child);
  for await (const line of createInterface({ input: child.stdout })) {
    if (line === 'READY') return child;
  }
  throw new Error('an ingestion worker exited before it was ready');
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await once(child, 'exit');
}

async function storeCounts(table: string) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const documents = await client.query(`SELECT count(*)::int AS n FROM "${table}_documents"`);
    const chunks = await client.query(
      `SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct_ids,
              count(DISTINCT (document_id, idx))::int AS distinct_positions
       FROM "${table}_chunks"`,
    );
    return {
      documents: documents.rows[0].n as number,
      chunks: chunks.rows[0].n as number,
      distinctIds: chunks.rows[0].distinct_ids as number,
      distinctPositions: chunks.rows[0].distinct_positions as number,
    };
  } finally {
    await client.end();
  }
}

interface Run {
  queue: IngestionQueue;
  table: string;
  env: Record<string, string>;
}

function newRun(label: string): Run {
  const table = uniqueTablePrefix(label);
  const name = `toolkit-ingest-test-${process.pid}-${label}`;
  const docs = join(root, `${label}-index`);
  return {
    queue: new IngestionQueue({ redisUrl: REDIS_URL, name, backoffMs: 200 }),
    table,
    env: { REDIS_URL, QUEUE: name, TABLE: table, DOCS: docs, POSTGRES_URL },
  };
}

const runs: Run[] = [];

afterAll(async () => {
  await Promise.all(workers.map((w) => stop(w, 'SIGKILL')));
  for (const run of runs) {
    await run.queue.obliterate().catch(() => undefined);
    await run.queue.close();
    await dropStoreTables(run.table);
  }
  rmSync(root, { recursive: true, force: true });
});

/**
 * How long the queue may go without a job finishing before the kill test fails (the killed
 * worker's jobs are taken over after 10 s, so a minute without progress is a hang).
 */
const STALL_MS = 60_000;

describe('ingestion on a BullMQ queue', () => {
  const rates: string[] = [];

  beforeAll(() => {
    makeFolder('small', 1500, false);
  });

  it.each([1, 2])(
    'ingests with %i worker process(es) (documents/s printed)',
    async (count) => {
      const run = newRun(`rate${count}`);
      runs.push(run);
      const pool = await Promise.all(Array.from({ length: count }, () => startWorker(run.env)));
      const startedAt = performance.now();
      await run.queue.enqueueFolder(join(root, 'small'));
      const counts = await run.queue.waitUntilDone();
      const seconds = (performance.now() - startedAt) / 1000;
      expect(counts.completed).toBe(1500);
      expect((await storeCounts(run.table)).documents).toBe(1500);
      rates.push(`${count} worker(s): ${(1500 / seconds).toFixed(0)} documents/s`);
      process.stdout.write(`ingestion: ${rates.at(-1)}\n`);
      await Promise.all(pool.map((w) => stop(w, 'SIGTERM')));
    },
    120_000,
  );

  it('loses and duplicates nothing when a worker is killed mid-run', async () => {
    const folder = makeFolder('large', DOCUMENTS, true);
    const run = newRun('kill');
    runs.push(run);
    const first = await startWorker(run.env);
    await startWorker(run.env);
    const queued = await run.queue.enqueueFolder(folder);
    expect(queued).toEqual({
      files: DOCUMENTS + DUPLICATES + 1,
      queued: DOCUMENTS + DUPLICATES + 1,
      known: 0,
    });

    let killed = false;
    // No fixed deadline for 10,000 documents (a loaded machine takes minutes): the run fails
    // when the queue stops moving for STALL_MS instead.
    const progress = stallWatch(STALL_MS, 'the queue');
    try {
      await Promise.race([
        run.queue.waitUntilDone((counts) => {
          progress.moved(counts.completed + counts.failed);
          if (!killed && counts.completed >= DOCUMENTS / 3) {
            killed = true;
            void stop(first, 'SIGKILL').then(() => startWorker(run.env));
          }
        }),
        progress.stalled,
      ]);
    } finally {
      progress.stop();
    }
    expect(killed).toBe(true);

    const counts = await run.queue.counts();
    expect(counts).toMatchObject({ completed: DOCUMENTS + DUPLICATES, failed: 1 });
    const failures = await run.queue.failures();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.file).toBe('broken.pdf');
    expect(failures[0]?.reason).toMatch(/PDF/i);
    expect(failures[0]?.attempts).toBe(1);

    // One document per distinct content; every chunk once.
    const stored = await storeCounts(run.table);
    expect(stored.documents).toBe(DOCUMENTS);
    expect(stored.chunks).toBe(stored.distinctIds);
    expect(stored.chunks).toBe(stored.distinctPositions);
    expect(stored.chunks).toBeGreaterThanOrEqual(DOCUMENTS);

    // The same folder again: nothing new is queued, nothing is added.
    expect(await run.queue.enqueueFolder(folder)).toEqual({
      files: DOCUMENTS + DUPLICATES + 1,
      queued: 0,
      known: DOCUMENTS + DUPLICATES + 1,
    });
    expect(await storeCounts(run.table)).toEqual(stored);
  }, 1_800_000);
});
