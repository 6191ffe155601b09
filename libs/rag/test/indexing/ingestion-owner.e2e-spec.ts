/**
 * The queue path carries the owner: files queued for an owner become that owner's documents
 * (the worker ingests them as such), files queued without one are shared, and the same file
 * queued for both is two jobs and two documents.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import { IngestionQueue } from '../../src/queue/ingestion-queue.js';
import { IngestionWorker } from '../../src/queue/ingestion-worker.js';
import { CountingEmbedder } from '../support/counting-embedder.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe('queued ingestion with an owner', () => {
  const root = mkdtempSync(join(tmpdir(), 'toolkit-ingest-owner-'));
  const name = `toolkit-ingest-owner-${randomBytes(4).toString('hex')}`;
  const queue = new IngestionQueue({ redisUrl: REDIS_URL, name });
  let index: DocumentIndex;
  let worker: IngestionWorker;

  beforeAll(async () => {
    index = await DocumentIndex.open({
      documentsDir: join(root, 'documents'),
      embedder: new CountingEmbedder(),
    });
    worker = await IngestionWorker.start({ redisUrl: REDIS_URL, target: index, name });
  });

  afterAll(async () => {
    await worker.close();
    await queue.obliterate();
    await queue.close();
    await index.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("indexes an owner's folder as that owner's documents, and the same folder shared apart", async () => {
    const folder = join(root, 'inbox');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'plan.md'),
      '# Plan\n\nThe launch moves to the second week of May.\n',
    );

    const owned = await queue.enqueueFolder(folder, { owner: 'user:42' });
    expect(owned.queued).toBe(1);
    expect((await queue.waitUntilDone()).failed).toBe(0);
    const [mine] = await index.listDocuments({ owner: 'user:42' });
    expect(mine).toMatchObject({ filename: 'plan.md', owner: 'user:42' });
    expect(await index.listDocuments()).toEqual([]);
    expect(await index.search('launch second week of May', 3, { owner: 'user:7' })).toEqual([]);

    // Same file, no owner: another job, a shared document beside the owner's copy.
    const shared = await queue.enqueueFolder(folder);
    expect(shared).toMatchObject({ queued: 1, known: 0 });
    expect((await queue.waitUntilDone()).failed).toBe(0);
    const [everyone] = await index.listDocuments();
    expect(everyone.id).not.toBe(mine.id);
    expect(everyone.owner).toBeUndefined();
    expect((await index.listDocuments({ owner: 'user:42' })).map((d) => d.id).sort()).toEqual(
      [mine.id, everyone.id].sort(),
    );
    // Queued again for the same owner: the job is known, nothing is added.
    expect(await queue.enqueueFolder(folder, { owner: 'user:42' })).toMatchObject({
      queued: 0,
      known: 1,
    });
  });

  it('refuses an unusable owner with 422 before queuing anything', async () => {
    await expect(queue.enqueueFolder(root, { owner: 'a\u0000b' })).rejects.toMatchObject({
      statusCode: 422,
    });
  });
});
