/**
 * A worker on a local store killed (SIGKILL) mid-run, at several points: each time the index
 * on disk opens again and is consistent (every stored document complete, its original kept,
 * no chunk twice), and a last worker finishes the queue with every file indexed once. Workers
 * are processes running the built package (`npm run build` first), on the test Redis.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HashingEmbedder } from '../../src/embedding/hashing.embedder.js';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import { IngestionQueue } from '../../src/queue/ingestion-queue.js';

const WORKER = fileURLToPath(new URL('../fixtures/local-ingest-worker.mjs', import.meta.url));
const REDIS_URL = 'redis://127.0.0.1:6379';
const FILES = 48;
const WORDS = ['policy', 'travel', 'budget', 'holiday', 'laptop', 'contract', 'security', 'office'];

const root = mkdtempSync(join(tmpdir(), 'toolkit-kill-'));
const QUEUE = `toolkit-kill-test-${process.pid}-${randomBytes(3).toString('hex')}`;
const queue = new IngestionQueue({ redisUrl: REDIS_URL, name: QUEUE, backoffMs: 50 });

afterAll(async () => {
  await queue.obliterate().catch(() => undefined);
  await queue.close();
  rmSync(root, { recursive: true, force: true });
});

/** About 4 KB of its own text: a few chunks, so a kill can land in the middle of a write. */
function note(n: number): string {
  const sentences = Array.from({ length: 40 }, (_, i) => {
    const words = Array.from({ length: 12 }, (_, w) => WORDS[(n * 7 + i * 3 + w) % WORDS.length]);
    return `Sentence ${i} of note ${n} (ref ${n * 7919 + i}): ${words.join(' ')}.`;
  });
  return `# Note ${n}\n\n${sentences.join(' ')}\n`;
}

/**
 * Runs a worker process; with `killAfter`, SIGKILLs it as soon as it has finished that many
 * files (other files are in its hands then). Resolves with the files it finished.
 */
async function runWorker(docs: string, killAfter?: number): Promise<string[]> {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, REDIS_URL, QUEUE, DOCS: docs, LOCK_MS: '2000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const done: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith('DONE ')) continue;
    done.push(line.slice(5));
    if (done.length === killAfter) child.kill('SIGKILL');
  }
  const [code, signal] = await exited;
  if (killAfter === undefined) return done;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  return done;
}

/** Opens the index as a restarted app would and checks it is whole; returns its documents. */
async function checkIndex(docs: string): Promise<string[]> {
  const index = await DocumentIndex.open({
    documentsDir: docs,
    embedder: new HashingEmbedder({ dimensions: 64 }),
  });
  try {
    const documents = await index.listDocuments();
    const ids = documents.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const chunkIds: string[] = [];
    for await (const chunk of index.store.chunks()) chunkIds.push(chunk.id);
    expect(new Set(chunkIds).size).toBe(chunkIds.length);
    expect(chunkIds.length).toBe(documents.reduce((n, d) => n + d.chunks, 0));
    expect(await index.store.count()).toBe(chunkIds.length);
    for (const document of documents) {
      expect(document.chunks).toBeGreaterThan(1);
      expect(existsSync(index.storage.resolve(document.path ?? ''))).toBe(true);
    }
    if (documents.length > 0) {
      const [hit] = await index.search('sentence note ref', 1);
      expect(ids).toContain(hit?.document.id);
    }
    return documents.map((d) => d.filename);
  } finally {
    await index.close();
  }
}

describe('a worker killed mid-run on a local store', () => {
  it('leaves an index that opens every time; a new worker completes it, nothing twice', async () => {
    const folder = join(root, 'notes');
    mkdirSync(folder);
    for (let n = 0; n < FILES; n += 1) writeFileSync(join(folder, `note-${n}.md`), note(n));
    const docs = join(root, 'documents');
    expect(await queue.enqueueFolder(folder)).toMatchObject({ queued: FILES });

    let indexed: string[] = [];
    for (const killAfter of [1, 4, 7, 10]) {
      await runWorker(docs, killAfter);
      const now = await checkIndex(docs);
      expect(now.length).toBeGreaterThanOrEqual(indexed.length);
      expect(now).toEqual(expect.arrayContaining(indexed));
      indexed = now;
    }
    expect(indexed.length).toBeLessThan(FILES);

    // The last worker takes the rest, and the jobs the killed ones had in hand.
    const last = spawn(process.execPath, [WORKER], {
      env: { ...process.env, REDIS_URL, QUEUE, DOCS: docs, LOCK_MS: '2000' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const counts = await queue.waitUntilDone(undefined, 100);
    last.kill('SIGKILL');
    await once(last, 'exit');
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: FILES, failed: 0 });
    const final = await checkIndex(docs);
    expect([...final].sort()).toEqual(
      Array.from({ length: FILES }, (_, n) => `note-${n}.md`).sort(),
    );
    // Only committed segment files remain once the index was opened.
    const segments = readdirSync(join(docs, '.index', 'vectors', 'segments'));
    expect(segments.filter((f) => f.endsWith('.f32'))).toHaveLength(FILES);
  }, 120_000);
});
