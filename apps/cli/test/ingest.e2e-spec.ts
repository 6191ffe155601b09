/**
 * `toolkit ingest` and `toolkit worker` as a user runs them, against the test Redis
 * (127.0.0.1:6379) and PostgreSQL: a folder queued for one worker (and again, adding nothing),
 * for two workers sharing a pgvector store (every file once), a worker stopped mid-run, a second
 * writer of a local store, in-process without Redis, a corrupt file, a missing folder, a worker
 * without Redis. Every run has its own queue and table names,
 * removed afterwards. `TOOLKIT_INGEST_RATE=1` also measures documents/s for 1 and 2 workers on
 * 1,000 documents (`ingest rate: ...`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { IngestionQueue } from '../../../libs/rag/src/queue/ingestion-queue.js';
import type { IngestSummary } from '../src/ingest/ingest-summary.js';
import {
  assertCliBuilt,
  freePort,
  runCli,
  startCli,
  type CliProcess,
  type CliResult,
} from './support/cli-process.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUN = `${process.pid}_${randomBytes(3).toString('hex')}`;
const WORDS = ['policy', 'travel', 'budget', 'holiday', 'laptop', 'contract', 'security', 'office'];

/** A user's environment without keys, backends or TOOLKIT_* overrides. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (/_API_KEY$|^REDIS_URL$|^DATABASE_URL$|^TOOLKIT_/.test(name)) delete env[name];
  return env;
}
const redisEnv = (): NodeJS.ProcessEnv => ({ ...baseEnv(), REDIS_URL });

const projects: TempProject[] = [];
const queues: string[] = [];
const tables: string[] = [];
const workers: CliProcess[] = [];

/** A project indexing offline, on its own queue (and pgvector table when asked). */
function project(label: string, store: 'local' | 'pgvector' = 'local'): TempProject {
  const queue = `toolkit-ingest-cli-${RUN}-${label}`;
  const table = `tk_rag_cli_${RUN}_${label}`;
  queues.push(queue);
  const rag = [`  embeddings: offline`, `  queue: ${queue}`, `  store: ${store}`];
  if (store === 'pgvector') {
    tables.push(table);
    rag.push(`  postgres_url: ${POSTGRES_URL}`, `  postgres_table: ${table}`);
  }
  const created = createTempProject({
    'toolkit.yaml': `app:\n  name: ingest-${label}\nrag:\n${rag.join('\n')}\n`,
  });
  projects.push(created);
  return created;
}

/** Writes notes `from` to `to - 1`, each its own content, into `folder` (and a corrupt PDF). */
function writeNotes(
  target: TempProject,
  folder: string,
  to: number,
  corrupt = false,
  from = 0,
): void {
  for (let n = from; n < to; n += 1) {
    const words = Array.from({ length: 30 }, (_, i) => WORDS[(n * 7 + i * 3) % WORDS.length]);
    const sub = n % 2 === 0 ? 'even' : 'odd';
    const text = `Note ${n} of ${folder}, ref ${n * 7919}. ${words.join(' ')}.\n`;
    target.write(`${folder}/${sub}/note-${n}.txt`, text);
  }
  if (corrupt) target.write(`${folder}/broken.pdf`, '%PDF-1.4\nthis is not a PDF at all\n');
}

async function startWorker(target: TempProject, concurrency = 4): Promise<CliProcess> {
  const worker = startCli(['worker', '--concurrency', String(concurrency)], {
    cwd: target.dir,
    env: redisEnv(),
    timeoutMs: 300_000,
  });
  workers.push(worker);
  await worker.waitFor(/Worker ready/);
  return worker;
}

async function stopWorker(worker: CliProcess): Promise<void> {
  worker.child.kill('SIGTERM');
  const { code } = await worker.exited;
  expect(code).toBe(0);
  expect(worker.stdout()).toMatch(/Worker stopped/);
}

function ingest(target: TempProject, args: string[], env = redisEnv()): Promise<CliResult> {
  return runCli(['ingest', ...args], { cwd: target.dir, env, timeoutMs: 300_000 });
}

function summaryOf(result: CliResult): IngestSummary {
  return JSON.parse(result.stdout.trim()) as IngestSummary;
}

/** The files a worker's output says it added. */
function added(worker: CliProcess): string[] {
  return [...worker.stdout().matchAll(/^added\s+(\S+)/gm)].map((match) => match[1] ?? '');
}

async function storedDocuments(table: string): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}_documents"`,
    );
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

beforeAll(() => assertCliBuilt());

afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  for (const name of queues) {
    const queue = new IngestionQueue({ redisUrl: REDIS_URL, name });
    await queue.obliterate().catch(() => undefined);
    await queue.close();
  }
  if (tables.length > 0) {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    for (const table of tables) {
      await client.query(
        `DROP TABLE IF EXISTS "${table}_chunks", "${table}_documents", "${table}_meta"`,
      );
    }
    await client.end();
  }
  projects.forEach((created) => created.cleanup());
}, 60_000);

describe('toolkit ingest with Redis and one worker', () => {
  let target: TempProject;
  let worker: CliProcess;

  beforeAll(async () => {
    target = project('one');
    worker = await startWorker(target);
  }, 60_000);
  afterAll(() => stopWorker(worker), 60_000);

  it('ingests 50 files through the queue; a re-run adds nothing', async () => {
    writeNotes(target, 'notes', 50);
    const first = await ingest(target, ['notes', '--wait', '--json']);
    expect(first.code).toBe(0);
    expect(summaryOf(first)).toMatchObject({
      mode: 'queue',
      files: 50,
      added: 50,
      unchanged: 0,
      failed: 0,
    });
    expect(summaryOf(first).documentsPerSecond).toBeGreaterThan(0);
    expect(new Set(added(worker)).size).toBe(50);

    const again = await ingest(target, ['notes', '--wait']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /Ingested 50 files from notes .*: 0 added, 50 unchanged, 0 failed/,
    );
    expect(added(worker)).toHaveLength(50);
  }, 120_000);

  it('reports a corrupt file as failed with its reason while the rest succeed', async () => {
    writeNotes(target, 'mixed', 10, true);
    const result = await ingest(target, ['mixed', '--wait']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/: 10 added, 0 unchanged, 1 failed/);
    expect(result.stdout).toMatch(/^ {2}failed: broken\.pdf: .*PDF/m);
    await worker.waitFor(/^failed\s+broken\.pdf: .*PDF/m);
  }, 120_000);

  it('refuses a second writer of the local store with one line', async () => {
    const second = await runCli(['worker'], { cwd: target.dir, env: redisEnv() });
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Error: another toolkit process \(pid \d+\) is writing the local store/,
      ),
    ]);
    const inProcess = await ingest(target, ['notes'], baseEnv());
    expect(inProcess.code).toBe(1);
    expect(inProcess.stderr).toMatch(/is writing the local store/);
  });
});

describe('toolkit ingest with two workers on a pgvector store', () => {
  it('processes every file once, including files queued before the workers started', async () => {
    const target = project('two', 'pgvector');
    writeNotes(target, 'notes', 120);
    const queued = await ingest(target, ['notes']);
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/Queued 120 files on toolkit-ingest-cli-\S+ \(0 already/);

    writeNotes(target, 'notes', 150, false, 120); // 30 more files than were queued
    // Follows the 120 queued jobs and the 30 new ones, which the workers started now process.
    const follower = startCli(['ingest', 'notes', '--wait'], {
      cwd: target.dir,
      env: redisEnv(),
      timeoutMs: 120_000,
    });
    await follower.waitFor(/^Warning: no toolkit worker is taking jobs from toolkit-ingest-cli-/m);
    const pool = [await startWorker(target, 2), await startWorker(target, 2)];
    const result = await follower.exited;
    expect(result.code).toBe(0);
    expect(follower.stdout()).toMatch(/Ingested 150 files .*: 150 added, 0 unchanged, 0 failed/);
    const files = pool.flatMap(added);
    expect(files).toHaveLength(150);
    expect(new Set(files).size).toBe(150);
    expect(await storedDocuments(`tk_rag_cli_${RUN}_two`)).toBe(150);
    await Promise.all(pool.map(stopWorker));
  }, 180_000);
});

describe('toolkit worker stopped mid-run', () => {
  it('finishes the files in hand on SIGTERM; another worker takes the rest, none twice', async () => {
    const target = project('stop');
    writeNotes(target, 'notes', 300);
    const first = await startWorker(target);
    expect((await ingest(target, ['notes'])).code).toBe(0);
    await first.waitFor(/^added /m);
    await stopWorker(first);
    expect(added(first).length).toBeLessThan(300); // stopped mid-run, not after the last file
    const second = await startWorker(target);
    const result = await ingest(target, ['notes', '--wait', '--json']);
    expect(result.code).toBe(0);
    const summary = summaryOf(result);
    expect(summary.failed).toBe(0);
    expect(summary.added + summary.unchanged).toBe(300);
    const files = [...added(first), ...added(second)];
    expect(files).toHaveLength(300);
    expect(new Set(files).size).toBe(300);
    await stopWorker(second);
  }, 120_000);
});

describe('toolkit ingest without Redis', () => {
  it('ingests in this process, with the same summary', async () => {
    const target = project('local');
    writeNotes(target, 'notes', 30, true);
    const result = await ingest(target, ['notes', '--json'], baseEnv());
    expect(result.code).toBe(1);
    const summary = summaryOf(result);
    expect(summary).toMatchObject({ mode: 'in-process', files: 31, added: 30, failed: 1 });
    expect(summary.failures[0]?.file).toBe('broken.pdf');
    expect(summary.failures[0]?.reason).toMatch(/PDF/);

    const again = await ingest(target, ['notes'], baseEnv());
    expect(again.stdout).toMatch(
      /Ingested 31 files .* in this process .*: 0 added, 30 unchanged, 1 failed/,
    );
  }, 60_000);

  it('says in one line that a folder does not exist', async () => {
    const result = await ingest(project('missing'), ['no-such-folder'], baseEnv());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual(['Error: folder not found: no-such-folder']);
  });
});

describe('toolkit worker without Redis', () => {
  it('exits 1 with one line when no Redis is configured', async () => {
    const result = await runCli(['worker'], { cwd: project('none').dir, env: baseEnv() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^Error: no Redis configured for ingestion jobs: set REDIS_URL/);
  });

  it('exits 1 with one line when Redis does not answer', async () => {
    const env = { ...baseEnv(), REDIS_URL: `redis://127.0.0.1:${await freePort()}` };
    const result = await runCli(['worker'], { cwd: project('down').dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^Error: Redis redis:\/\/127\.0\.0\.1:\d+ unreachable \(REDIS_URL\)/,
    );
  });
});

const measure = process.env.TOOLKIT_INGEST_RATE === '1' ? describe : describe.skip;

measure('documents/s on 1,000 documents (TOOLKIT_INGEST_RATE=1)', () => {
  it.each([1, 2])(
    'with %i worker process(es) on a pgvector store',
    async (count) => {
      const target = project(`rate${count}`, 'pgvector');
      writeNotes(target, 'notes', 1000);
      const pool = [];
      for (let n = 0; n < count; n += 1) pool.push(await startWorker(target));
      const result = await ingest(target, ['notes', '--wait', '--json']);
      const summary = summaryOf(result);
      expect(summary).toMatchObject({ files: 1000, added: 1000, failed: 0 });
      process.stdout.write(
        `ingest rate: ${count} worker(s), 1000 documents in ${summary.seconds.toFixed(2)} s: ` +
          `${summary.documentsPerSecond.toFixed(0)} documents/s\n`,
      );
      await Promise.all(pool.map(stopWorker));
    },
    300_000,
  );
});
