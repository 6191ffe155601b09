/**
 * Bad input on the ingestion queue, each with a clear outcome and an index that stays
 * consistent: a Redis outage mid-run (the worker says so, stays up and resumes; every file
 * is indexed once), a file that changes after it was queued or while it is read, files or a
 * whole folder deleted after they were queued, a job for a document deleted meanwhile, and
 * corrupt DOCX files beside good ones. Workers run in this process on the test Redis
 * (127.0.0.1:6379), each test on its own queue.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocx } from '../__fixtures__/build-docx.js';
import { buildZip } from '../__fixtures__/build-zip.js';
import { Redis } from 'ioredis';
import { HashingEmbedder } from '../../src/embedding/hashing.embedder.js';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import type { IngestionOutcome, IngestionTarget } from '../../src/queue/ingestion-job.js';
import { listFiles } from '../../src/indexing/folder-listing.js';
import { FolderGoneError } from '../../src/indexing/folder-gone.error.js';
import { PgVectorStore } from '../../src/stores/pgvector.store.js';
import { dropStoreTables, POSTGRES_URL, uniqueTablePrefix } from '../support/postgres.js';
import { FILE_GONE_REASON } from '../../src/queue/ingest-folder-file.js';
import { IngestionQueue } from '../../src/queue/ingestion-queue.js';
import { IngestionWorker, type IngestionWorkerOptions } from '../../src/queue/ingestion-worker.js';
import { until } from '../support/poll.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const RUN = `${process.pid}-${randomBytes(3).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'toolkit-bad-input-'));
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A note of its own content. */
function note(label: string, n: number): string {
  return `Note ${n} of ${label}, reference ${label}-${n * 7919}. Travel budget policy ${n}.\n`;
}

/** `count` notes in a new folder, `note-<n>.txt`. */
function writeNotes(label: string, count: number): string {
  const folder = join(root, label);
  mkdirSync(folder, { recursive: true });
  for (let n = 0; n < count; n += 1) writeFileSync(join(folder, `note-${n}.txt`), note(label, n));
  return folder;
}

async function openIndex(label: string): Promise<DocumentIndex> {
  const index = await DocumentIndex.open({
    documentsDir: join(root, `${label}-documents`),
    embedder: new HashingEmbedder({ dimensions: 64 }),
  });
  cleanups.push(() => index.close());
  return index;
}

function openQueue(label: string, attempts = 3): IngestionQueue {
  const queue = new IngestionQueue({
    redisUrl: REDIS_URL,
    name: queueName(label),
    attempts,
    backoffMs: 50,
  });
  cleanups.push(async () => {
    await queue.obliterate().catch(() => undefined);
    await queue.close();
  });
  return queue;
}

const queueName = (label: string) => `toolkit-bad-input-${RUN}-${label}`;

/** What a worker reported, line by line, as `toolkit worker` would print it. */
interface WorkerLog {
  lines: string[];
  outcomes: Map<string, IngestionOutcome[]>;
}

async function startWorker(
  label: string,
  target: IngestionTarget,
  extra: Partial<IngestionWorkerOptions> = {},
): Promise<WorkerLog> {
  const log: WorkerLog = { lines: [], outcomes: new Map() };
  const worker = await IngestionWorker.start({
    redisUrl: REDIS_URL,
    name: queueName(label),
    target,
    concurrency: 2,
    onCompleted: (file, outcome) => {
      log.outcomes.set(file, [...(log.outcomes.get(file) ?? []), outcome]);
      log.lines.push(`${outcome.created ? 'added' : 'unchanged'} ${file}`);
    },
    onFailed: (file, reason, willRetry) =>
      log.lines.push(`${willRetry ? 'retrying' : 'failed'} ${file}: ${reason}`),
    onConnectionLost: (reason) => log.lines.push(`lost: ${reason}`),
    onConnectionRestored: () => log.lines.push('restored'),
    onError: (message) => log.lines.push(`error: ${message}`),
    ...extra,
  });
  cleanups.push(() => worker.close(true));
  return log;
}

describe('a Redis outage mid-ingestion', () => {
  it('is reported once by the worker, which resumes when Redis is back: every file indexed once', async () => {
    const proxy = await TcpProxy.start(6379);
    cleanups.push(() => proxy.close());
    const folder = writeNotes('outage', 60);
    const index = await openIndex('outage');
    const queue = openQueue('outage');
    // The 20th file is held until the line is cut: its result reaches Redis only once it is back.
    let calls = 0;
    let release = (): void => undefined;
    const held = new Promise<void>((done) => (release = done));
    const target: IngestionTarget = {
      ingest: async (content, filename) => {
        calls += 1;
        if (calls === 20) await held;
        return index.ingest(content, filename);
      },
    };
    const log = await startWorker('outage', target, {
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
    });

    await queue.enqueueFolder(folder);
    await until(() => calls >= 20, 'the worker to take the 20th file');
    await proxy.cut();
    release();
    await until(() => log.lines.some((l) => l.startsWith('lost:')), 'the worker to report it');
    expect(log.lines.filter((l) => l.startsWith('lost:'))).toEqual([
      expect.stringMatching(/^lost: lost the connection to Redis at 127\.0\.0\.1:\d+ \(/),
    ]);
    expect(await queue.counts()).toMatchObject({ failed: 0 });

    await proxy.restore();
    const counts = await queue.waitUntilDone();
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 60, failed: 0 });
    expect(log.lines.filter((l) => l === 'restored')).toHaveLength(1);
    expect(log.lines.filter((l) => l.startsWith('error:') || l.startsWith('failed'))).toEqual([]);

    // Every file indexed, each added exactly once (a second run of a file would add nothing).
    const files = Array.from({ length: 60 }, (_, n) => `note-${n}.txt`);
    expect([...log.outcomes.keys()].sort()).toEqual([...files].sort());
    for (const file of files) {
      expect(log.outcomes.get(file)?.filter((o) => o.created)).toHaveLength(1);
    }
    const documents = await index.listDocuments();
    expect(documents.map((d) => d.filename).sort()).toEqual([...files].sort());
    expect(await index.store.count()).toBe(documents.reduce((n, d) => n + d.chunks, 0));
  }, 60_000);

  it('outlasting a job lock: the job is taken back and run again, said once, nothing twice', async () => {
    const proxy = await TcpProxy.start(6379);
    cleanups.push(() => proxy.close());
    const redis = new Redis(REDIS_URL);
    cleanups.push(async () => void (await redis.quit()));
    const folder = writeNotes('long-outage', 12);
    const index = await openIndex('long-outage');
    const queue = openQueue('long-outage');
    let held = '';
    let release = (): void => undefined;
    const gate = new Promise<void>((done) => (release = done));
    const target: IngestionTarget = {
      ingest: async (content, filename) => {
        if (!held) {
          held = filename;
          await gate;
        }
        return index.ingest(content, filename);
      },
    };
    const log = await startWorker('long-outage', target, {
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
      concurrency: 1,
      lockDurationMs: 1000,
    });
    const { queuedIds } = await queue.enqueueFolderJobs(folder);
    await until(() => held !== '', 'the worker to take a file');
    const heldId = (await queue.jobStates(queuedIds)).find((s) => s.file === held)?.id ?? '';
    await proxy.cut();
    // Redis itself lets the lock expire while the worker cannot renew it.
    await until(
      async () => (await redis.exists(`bull:${queueName('long-outage')}:${heldId}:lock`)) === 0,
      'the lock of the held job to expire',
    );
    release();
    await proxy.restore();

    expect(await queue.waitUntilDone()).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      completed: 12,
      failed: 0,
    });
    expect(log.lines.filter((l) => l.startsWith('error:'))).toEqual([
      `error: the result of job ${heldId} could not be recorded: Redis was away longer than its lock, so the job runs again (content already indexed is not added twice)`,
    ]);
    expect(log.outcomes.get(held)).toEqual([expect.objectContaining({ created: false })]);
    const documents = await index.listDocuments();
    expect(documents.map((d) => d.filename).sort()).toEqual(
      Array.from({ length: 12 }, (_, n) => `note-${n}.txt`).sort(),
    );
  }, 60_000);
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a file that changes while it is being ingested', () => {
  it('is indexed as it is when its job runs, with the hash of that content', async () => {
    const folder = join(root, 'changed');
    mkdirSync(folder);
    writeFileSync(join(folder, 'policy.txt'), 'Travel policy, version one.');
    const index = await openIndex('changed');
    const queue = openQueue('changed');
    await queue.enqueueFolder(folder);
    const now = 'Travel policy, version two: trains only, no flights.';
    writeFileSync(join(folder, 'policy.txt'), now);

    const log = await startWorker('changed', index);
    await queue.waitUntilDone();
    expect(log.outcomes.get('policy.txt')).toEqual([
      expect.objectContaining({ created: true, sha256: sha256(now), changedSinceQueued: true }),
    ]);
    expect((await index.listDocuments()).map((d) => d.sha256)).toEqual([sha256(now)]);
    expect((await index.search('trains flights', 1))[0]?.text).toBe(now);
  });

  it('is read again when it changes during the read: one version is indexed', async () => {
    const folder = join(root, 'rewritten');
    mkdirSync(folder);
    writeFileSync(join(folder, 'memo.txt'), 'Memo, first draft.');
    const index = await openIndex('rewritten');
    const queue = openQueue('rewritten');
    await queue.enqueueFolder(folder);
    const final = 'Memo, final text with more words.';
    let reads = 0;
    // The bytes of the first read are the old ones, but the file changed before it ended.
    const rewriteDuringFirstRead = async (path: string): Promise<Uint8Array> => {
      const bytes = await readFile(path);
      if ((reads += 1) === 1) await writeFile(path, final);
      return bytes;
    };
    const log = await startWorker('rewritten', index, { readFile: rewriteDuringFirstRead });
    await queue.waitUntilDone();
    expect(reads).toBe(2);
    expect(log.outcomes.get('memo.txt')).toEqual([
      expect.objectContaining({ created: true, sha256: sha256(final) }),
    ]);
    expect((await index.listDocuments()).map((d) => d.sha256)).toEqual([sha256(final)]);
  });

  it('fails with that reason after its retries when it changes during every read', async () => {
    const folder = writeNotes('busy', 5);
    writeFileSync(join(folder, 'busy.log.txt'), 'line 1\n');
    const index = await openIndex('busy');
    const queue = openQueue('busy', 2);
    await queue.enqueueFolder(folder);
    const appendDuringRead = async (path: string): Promise<Uint8Array> => {
      const bytes = await readFile(path);
      if (path.endsWith('busy.log.txt')) await writeFile(path, `${bytes.toString()}line\n`);
      return bytes;
    };
    const log = await startWorker('busy', index, { readFile: appendDuringRead });
    const counts = await queue.waitUntilDone();
    expect(counts).toMatchObject({ completed: 5, failed: 1 });
    const reason =
      'changed while it was being read (3 attempts); ingest it again once it is written';
    expect(await queue.failures()).toEqual([{ file: 'busy.log.txt', reason, attempts: 2 }]);
    expect(log.lines.filter((l) => l.includes('busy.log.txt'))).toEqual([
      `retrying busy.log.txt: ${reason}`,
      `failed busy.log.txt: ${reason}`,
    ]);
    expect((await index.listDocuments()).map((d) => d.filename).sort()).toEqual(
      Array.from({ length: 5 }, (_, n) => `note-${n}.txt`),
    );
  });
});

describe('files and folders that vanish', () => {
  it('fails the job of a file deleted after it was queued at once, with that reason', async () => {
    const folder = writeNotes('deleted-files', 6);
    const index = await openIndex('deleted-files');
    const queue = openQueue('deleted-files');
    await queue.enqueueFolder(folder);
    rmSync(join(folder, 'note-1.txt'));
    rmSync(join(folder, 'note-4.txt'));
    const log = await startWorker('deleted-files', index);
    expect(await queue.waitUntilDone()).toMatchObject({ completed: 4, failed: 2 });
    expect(await queue.failures()).toEqual(
      expect.arrayContaining(
        ['note-1.txt', 'note-4.txt'].map((file) => ({
          file,
          reason: FILE_GONE_REASON,
          attempts: 1,
        })),
      ),
    );
    expect(log.lines.filter((l) => l.startsWith('retrying'))).toEqual([]);
    expect((await index.listDocuments()).map((d) => d.filename).sort()).toEqual([
      'note-0.txt',
      'note-2.txt',
      'note-3.txt',
      'note-5.txt',
    ]);
  });

  it('fails every job of a folder removed after it was queued, none retried or left waiting', async () => {
    const folder = writeNotes('deleted-folder', 8);
    const index = await openIndex('deleted-folder');
    const queue = openQueue('deleted-folder');
    await queue.enqueueFolder(folder);
    rmSync(folder, { recursive: true });
    const log = await startWorker('deleted-folder', index);
    expect(await queue.waitUntilDone()).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      completed: 0,
      failed: 8,
    });
    const failures = await queue.failures();
    expect(failures.map((f) => [f.reason, f.attempts])).toEqual(
      Array.from({ length: 8 }, () => [FILE_GONE_REASON, 1]),
    );
    expect(log.lines.filter((l) => !l.startsWith('failed'))).toEqual([]);
    expect(await index.listDocuments()).toEqual([]);
  });

  it('refuses the listing of a folder removed meanwhile instead of returning a part of it', async () => {
    const folder = join(root, 'listed');
    for (const sub of ['a', 'b', 'c']) {
      mkdirSync(join(folder, sub), { recursive: true });
      writeFileSync(join(folder, sub, 'x.txt'), sub);
    }
    const removeWhileListing = (path: string) => {
      if (path.endsWith('b')) rmSync(folder, { recursive: true });
    };
    const error = await listFiles(folder, { required: true, onFolder: removeWhileListing }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FolderGoneError);
    expect((error as Error).message).toBe(
      `folder ${folder} was removed while it was being listed; nothing was ingested from it`,
    );
    // Not a folder the user asked for (the documents folder): missing means empty.
    expect(await listFiles(folder)).toEqual([]);
  });
});

describe('a job for a document deleted meanwhile', () => {
  it('indexes the file again when its document was deleted after the job was queued', async () => {
    const folder = writeNotes('deleted-document', 3);
    const index = await openIndex('deleted-document');
    const uploaded = await index.ingest(await readFile(join(folder, 'note-1.txt')), 'upload.txt');
    const queue = openQueue('deleted-document');
    await queue.enqueueFolder(folder);
    expect(await index.deleteDocument(uploaded.document.id)).toBe(true);

    const log = await startWorker('deleted-document', index);
    expect(await queue.waitUntilDone()).toMatchObject({ completed: 3, failed: 0 });
    expect(log.outcomes.get('note-1.txt')).toEqual([
      expect.objectContaining({ documentId: uploaded.document.id, created: true }),
    ]);
    const documents = await index.listDocuments();
    expect(documents.map((d) => d.filename).sort()).toEqual([
      'note-0.txt',
      'note-1.txt',
      'note-2.txt',
    ]);
    const again = documents.find((d) => d.id === uploaded.document.id);
    expect(existsSync(index.storage.resolve(again?.path ?? ''))).toBe(true);
    expect((await index.search('reference deleted-document-7919', 1))[0]?.document.id).toBe(
      uploaded.document.id,
    );
  });

  it('indexes it again when another instance deleted it from a shared store', async () => {
    const table = uniqueTablePrefix('deleted_shared');
    cleanups.push(() => dropStoreTables(table));
    const embedder = new HashingEmbedder({ dimensions: 64 });
    const open = async () => {
      const store = await PgVectorStore.open({
        url: POSTGRES_URL,
        table,
        dimensions: 64,
        embedderId: embedder.id,
        index: 'none',
      });
      const index = await DocumentIndex.open({
        documentsDir: join(root, 'shared-documents'),
        embedder,
        store,
      });
      cleanups.push(async () => {
        await index.close();
        await store.close();
      });
      return index;
    };
    const worker = await open();
    const app = await open();
    const folder = writeNotes('shared', 2);
    const queue = openQueue('shared');
    const log = await startWorker('shared', worker);
    await queue.enqueueFolder(folder);
    await queue.waitUntilDone();
    const first = log.outcomes.get('note-0.txt')?.[0];
    expect(first).toMatchObject({ created: true });

    // The app deletes it; then the file is queued again (it was touched: a new job).
    expect(await app.deleteDocument(first?.documentId ?? '')).toBe(true);
    writeFileSync(join(folder, 'note-0.txt'), note('shared', 0));
    expect(await queue.enqueueFolder(folder)).toMatchObject({ queued: 1, known: 1 });
    await queue.waitUntilDone();
    expect(log.outcomes.get('note-0.txt')?.[1]).toMatchObject({
      documentId: first?.documentId,
      created: true,
    });
    expect((await app.listDocuments()).map((d) => d.filename).sort()).toEqual([
      'note-0.txt',
      'note-1.txt',
    ]);
  });
});

describe('corrupt documents beside good ones', () => {
  it('fails each corrupt DOCX or PDF at once with its reason; the other files are indexed', async () => {
    const folder = writeNotes('corrupt', 4);
    const docx = buildDocx(['Expense claims are filed within thirty days.']);
    writeFileSync(join(folder, 'good.docx'), docx);
    writeFileSync(join(folder, 'not-a-docx.docx'), buildZip({ 'notes.txt': 'just a zip' }));
    writeFileSync(join(folder, 'truncated.docx'), docx.subarray(0, docx.length >> 1));
    writeFileSync(join(folder, 'cut-at-the-end.docx'), docx.subarray(0, docx.length - 30));
    writeFileSync(join(folder, 'broken.pdf'), '%PDF-1.4\nthis is not a PDF at all\n');
    const index = await openIndex('corrupt');
    const queue = openQueue('corrupt');
    await queue.enqueueFolder(folder);
    const log = await startWorker('corrupt', index);

    expect(await queue.waitUntilDone()).toMatchObject({ completed: 5, failed: 4 });
    const failures = Object.fromEntries(
      (await queue.failures()).map((f) => [f.file, `${f.attempts}: ${f.reason}`]),
    );
    expect(failures).toEqual({
      'not-a-docx.docx': '1: "not-a-docx.docx" claims to be DOCX but its content is a ZIP archive',
      'truncated.docx':
        '1: "truncated.docx" is not a readable DOCX file: the archive is truncated or damaged',
      'cut-at-the-end.docx': '1: "cut-at-the-end.docx" is not a readable DOCX file',
      'broken.pdf': expect.stringMatching(/^1: .*broken\.pdf.*PDF/),
    });
    expect(log.lines.filter((l) => l.startsWith('retrying'))).toEqual([]);
    expect((await index.listDocuments()).map((d) => d.filename).sort()).toEqual([
      'good.docx',
      'note-0.txt',
      'note-1.txt',
      'note-2.txt',
      'note-3.txt',
    ]);
    expect((await index.search('expense claims thirty days', 1))[0]?.document.filename).toBe(
      'good.docx',
    );
  });
});
