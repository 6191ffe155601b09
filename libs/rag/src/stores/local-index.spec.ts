import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { clusteredVectors } from '../../test/support/clustered-vectors.js';
import { chunksOf, record } from '../../test/support/records.js';
import { IVF_FILE } from './ivf-index.file.js';
import { LocalVectorStore, type LocalVectorStoreOptions } from './local-vector.store.js';
import { scanTopK } from './vector-math.js';

const D = 32;
const PER_DOC = 250;
const source = clusteredVectors({ dimensions: D, centres: 60, noise: 0.8, seed: 21 });
const corpus = source.next(12 * PER_DOC);
const queries = source.next(40);
const vectorsOf = (doc: number) =>
  Array.from({ length: PER_DOC }, (_, i) =>
    corpus.subarray((doc * PER_DOC + i) * D, (doc * PER_DOC + i + 1) * D),
  );
const query = (q: number) => queries.subarray(q * D, (q + 1) * D);

async function fill(store: LocalVectorStore, docs: number[]): Promise<void> {
  for (const doc of docs) {
    const texts = Array.from({ length: PER_DOC }, (_, i) => `d${doc} c${i}`);
    await store.add(record(`d${doc}`, PER_DOC), chunksOf(`d${doc}`, texts), vectorsOf(doc));
  }
}

async function idle(store: LocalVectorStore): Promise<void> {
  while (store.indexStatus().building) await new Promise((r) => setTimeout(r, 5));
}

/** Chunk texts of the exact top k over the given documents. */
function exactTop(docs: number[], q: number, k: number): string[] {
  const rows = docs.flatMap((doc) => Array.from({ length: PER_DOC }, (_, i) => [doc, i]));
  const matrix = new Float32Array(rows.length * D);
  rows.forEach(([doc, i], r) => matrix.set(vectorsOf(doc)[i], r * D));
  return scanTopK(matrix, rows.length, D, query(q), k).map(({ row }) => {
    const [doc, i] = rows[row];
    return `d${doc} c${i}`;
  });
}

async function texts(store: LocalVectorStore, q: number, k = 10): Promise<string[]> {
  return (await store.search(query(q), k)).map((m) => m.chunk.text);
}

describe('LocalVectorStore with an IVF index', () => {
  let dir: string;
  const open = (options: Partial<LocalVectorStoreOptions> = {}, directory = dir) =>
    LocalVectorStore.open({ directory, dimensions: D, embedderId: 'e', index: 'ivf', ...options });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tk-rag-ivf-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('trains in the background past the threshold, then finds the exact neighbours', async () => {
    const store = await open();
    await fill(store, [0, 1, 2, 3]);
    expect(store.indexStatus()).toMatchObject({ search: 'exact', building: false });
    await fill(store, [4]);
    expect(store.indexStatus().building).toBe(true);
    await idle(store);
    expect(store.indexStatus()).toMatchObject({ search: 'ivf', lists: 35, trainedRows: 1250 });
    let found = 0;
    for (let q = 0; q < 40; q += 1) {
      const truth = new Set(exactTop([0, 1, 2, 3, 4], q, 10));
      found += (await texts(store, q)).filter((t) => truth.has(t)).length;
    }
    expect(found / 400).toBeGreaterThanOrEqual(0.95);
    expect(await readdir(dir)).toContain(IVF_FILE);
    await store.close();
  });

  it('never returns deleted or replaced chunks, and finds chunks added after training', async () => {
    const store = await open();
    await fill(store, [0, 1, 2, 3, 4, 5, 6]);
    await idle(store);
    await store.deleteDocument('d1');
    await store.add(record('d2', 1), chunksOf('d2', ['d2 replaced']), [query(0)]);
    for (let q = 0; q < 40; q += 1) {
      const hits = await texts(store, q, 50);
      expect(hits.some((t) => t.startsWith('d1 ') || /^d2 c/.test(t))).toBe(false);
    }
    // A deleted vector itself as the query: its own chunk is gone.
    const own = await store.search(vectorsOf(1)[7], 5);
    expect(own.map((m) => m.chunk.documentId)).not.toContain('d1');
    // The replacement, added after training, is the best match for its own vector.
    expect((await texts(store, 0, 1))[0]).toBe('d2 replaced');
    expect(store.indexStatus().search).toBe('ivf');
    await store.close();
  });

  it('reopens with the saved index without training again, answering the same', async () => {
    const store = await open();
    await fill(store, [0, 1, 2, 3, 4, 5]);
    await idle(store);
    const before = await Promise.all([0, 1, 2, 3].map((q) => texts(store, q)));
    const status = store.indexStatus();
    await store.close();

    const reopened = await open();
    expect(reopened.indexStatus()).toEqual({ ...status, building: false });
    expect(await Promise.all([0, 1, 2, 3].map((q) => texts(reopened, q)))).toEqual(before);
    await reopened.close();
  });

  it('after a kill, assigns the segments the index file does not know yet', async () => {
    const store = await open();
    await fill(store, [0, 1, 2, 3, 4]);
    await idle(store);
    await fill(store, [5]);
    await store.deleteDocument('d0');
    // A copy taken now is what a kill leaves: store.json knows d5 and not d0, ivf.index still
    // lists d0 and not d5; plus a half-written index file.
    const copy = `${dir}-copy`;
    await cp(dir, copy, { recursive: true });
    await writeFile(join(copy, `${IVF_FILE}.123.abcd1234.tmp`), 'partial');
    await store.close();
    const revived = await open({}, copy);
    expect(revived.indexStatus()).toMatchObject({ search: 'ivf', building: false });
    const own = await revived.search(vectorsOf(5)[3], 1);
    expect(own[0].chunk.text).toBe('d5 c3');
    const gone = await revived.search(vectorsOf(0)[3], 20);
    expect(gone.some((m) => m.chunk.documentId === 'd0')).toBe(false);
    expect(await readdir(copy)).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/tmp$/)]),
    );
    await revived.close();
    await rm(copy, { recursive: true, force: true });
  });

  it.each([
    ['a flipped byte', (bytes: Buffer) => bytes.fill(bytes[100] ^ 0xff, 100, 101)],
    ['a torn file', (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ['garbage', () => Buffer.from('not an index')],
  ])('falls back to exact search and rebuilds after %s in the index file', async (_, damage) => {
    const store = await open();
    await fill(store, [0, 1, 2, 3, 4]);
    await idle(store);
    await store.close();
    const path = join(dir, IVF_FILE);
    await writeFile(path, damage(await readFile(path)));

    const reopened = await open();
    expect(reopened.indexStatus()).toMatchObject({ search: 'exact', building: true });
    expect(await texts(reopened, 3)).toEqual(exactTop([0, 1, 2, 3, 4], 3, 10));
    await idle(reopened);
    expect(reopened.indexStatus().search).toBe('ivf');
    await reopened.close();
    const again = await open();
    expect(again.indexStatus()).toMatchObject({ search: 'ivf', building: false });
    await again.close();
  });

  it('keeps adding and searching when the index file cannot be written', async () => {
    const store = await open();
    await fill(store, [0, 1, 2, 3, 4]);
    await idle(store);
    await rm(join(dir, IVF_FILE));
    await mkdir(join(dir, IVF_FILE, 'in-the-way'), { recursive: true });
    await fill(store, [5, 6, 7, 8, 9, 10]);
    await idle(store);
    expect(store.indexStatus().search).toBe('ivf');
    expect((await store.search(vectorsOf(10)[4], 1))[0].chunk.text).toBe('d10 c4');
    await store.close();
    const reopened = await open({ index: 'exact' });
    expect(await reopened.count()).toBe(11 * PER_DOC);
    expect(await texts(reopened, 5)).toEqual(exactTop([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5, 10));
    await reopened.close();
  });

  it('retrains once the store has doubled, and clear() drops the index', async () => {
    const store = await open();
    await fill(store, [0, 1, 2, 3, 4]);
    await idle(store);
    expect(store.indexStatus().trainedRows).toBe(1250);
    await fill(store, [5, 6, 7, 8]);
    expect(store.indexStatus().building).toBe(false);
    await fill(store, [9]);
    await idle(store);
    expect(store.indexStatus().trainedRows).toBe(2500);
    await store.clear();
    expect(store.indexStatus()).toMatchObject({ search: 'exact', lists: 0 });
    expect(await readdir(dir)).not.toContain(IVF_FILE);
    await store.close();
  });

  it('builds nothing in exact mode, nor in auto mode below the threshold', async () => {
    for (const index of ['exact', 'auto'] as const) {
      const store = await open({ index });
      await fill(store, [0, 1, 2, 3, 4]);
      await store.buildIndex().catch(() => undefined);
      if (index === 'exact') expect(store.indexStatus().search).toBe('exact');
      await store.clear();
      await store.close();
    }
    const auto = await open({ index: 'auto' });
    await fill(auto, [0, 1, 2, 3, 4, 5, 6, 7]);
    expect(auto.indexStatus()).toMatchObject({ search: 'exact', building: false });
    expect(await readdir(dir)).not.toContain(IVF_FILE);
    await auto.close();
  });
});
