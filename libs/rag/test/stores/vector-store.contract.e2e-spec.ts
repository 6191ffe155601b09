import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { rejection } from '../support/rejection.js';
import { LocalVectorStore } from '../../src/stores/local-vector.store.js';
import { PgVectorStore } from '../../src/stores/pgvector.store.js';
import type { DocumentScope } from '../../src/stores/document-scope.js';
import type { VectorStore, VectorStoreOptions } from '../../src/stores/vector-store.interface.js';
import { dropStoreTables, POSTGRES_URL, uniqueTablePrefix } from '../support/postgres.js';
import { basis, chunksOf, owned, record } from '../support/records.js';

const DIMS = 8;
const EMBEDDER = 'test-embedder:8';

/** Opens a store of one kind; every call with the same `place` sees the same data. */
interface StoreKind {
  name: string;
  newPlace(): Promise<string>;
  open(place: string, options?: Partial<VectorStoreOptions>): Promise<VectorStore>;
  cleanup(): Promise<void>;
}

const tempDirs: string[] = [];
const prefixes: string[] = [];

const kinds: StoreKind[] = [
  {
    name: 'LocalVectorStore',
    async newPlace() {
      const dir = await mkdtemp(join(tmpdir(), 'tk-rag-store-'));
      tempDirs.push(dir);
      return dir;
    },
    open: (directory, options) =>
      LocalVectorStore.open({ directory, dimensions: DIMS, embedderId: EMBEDDER, ...options }),
    async cleanup() {
      await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  },
  {
    name: 'PgVectorStore',
    newPlace() {
      const prefix = uniqueTablePrefix('contract');
      prefixes.push(prefix);
      return Promise.resolve(prefix);
    },
    open: (table, options) =>
      PgVectorStore.open({
        url: POSTGRES_URL,
        table,
        dimensions: DIMS,
        embedderId: EMBEDDER,
        ...options,
      }),
    async cleanup() {
      for (const prefix of prefixes) await dropStoreTables(prefix);
    },
  },
];

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe.each(kinds)('VectorStore contract: $name', (kind) => {
  let place: string;
  let store: VectorStore;
  const open: VectorStore[] = [];
  const openStore = async (options?: Partial<VectorStoreOptions>) => {
    const s = await kind.open(place, options);
    open.push(s);
    return s;
  };

  beforeEach(async () => {
    place = await kind.newPlace();
    store = await openStore();
  });

  afterAll(async () => {
    for (const s of open) await s.close();
    await kind.cleanup();
  });

  it('starts empty', async () => {
    expect(store.kind).toBeDefined();
    expect([store.dimensions, store.embedderId]).toEqual([DIMS, EMBEDDER]);
    expect(await store.count()).toBe(0);
    expect(await store.listDocuments()).toEqual([]);
    expect(await store.search(basis(DIMS, 0), 5)).toEqual([]);
    expect(await all(store.chunks())).toEqual([]);
  });

  it('adds documents and finds the closest chunks by cosine, best first', async () => {
    await store.add(record('a', 2), chunksOf('a', ['alpha zero', 'alpha one']), [
      basis(DIMS, 0),
      basis(DIMS, 1),
    ]);
    await store.add(record('b', 1), chunksOf('b', ['beta two']), [basis(DIMS, 2, 0, 0.5)]);
    expect(await store.count()).toBe(3);
    expect((await store.listDocuments()).map((d) => d.id)).toEqual(['a', 'b']);
    expect(await store.getDocument('b')).toEqual(record('b', 1));
    expect(await store.getDocument('zzz')).toBeUndefined();

    // Scale does not matter: cosine compares directions.
    const hits = await store.search(
      basis(DIMS, 0).map((x) => x * 7),
      2,
    );
    expect(hits.map((h) => h.chunk.id)).toEqual(['a:0', 'b:0']);
    expect(hits[0].score).toBeCloseTo(1, 5);
    expect(hits[1].score).toBeCloseTo(0.5 / Math.sqrt(1.25), 5);
    expect(hits[0].chunk).toEqual(chunksOf('a', ['alpha zero', 'alpha one'])[0]);
    expect(await store.search(basis(DIMS, 1), 10)).toHaveLength(3);
  });

  it('keeps page numbers and non-ASCII text', async () => {
    const chunks = chunksOf('p', ['Grüße aus Zürich — 東京 ✓'], 3);
    await store.add(record('p', 1), chunks, [basis(DIMS, 4)]);
    const [hit] = await store.search(basis(DIMS, 4), 1);
    expect(hit.chunk).toEqual(chunks[0]);
    expect(hit.chunk).toMatchObject({ page: 3, pageEnd: 4 });
  });

  it('replaces a document added again under the same id', async () => {
    await store.add(record('a', 3), chunksOf('a', ['x', 'y', 'z']), [
      basis(DIMS, 0),
      basis(DIMS, 1),
      basis(DIMS, 2),
    ]);
    await store.add(record('a', 1, 'renamed.txt'), chunksOf('a', ['only']), [basis(DIMS, 3)]);
    expect(await store.count()).toBe(1);
    expect(await store.listDocuments()).toEqual([record('a', 1, 'renamed.txt')]);
    expect((await store.search(basis(DIMS, 0), 5)).map((h) => h.chunk.text)).toEqual(['only']);
  });

  it('deletes a document with all its chunks', async () => {
    await store.add(record('a', 2), chunksOf('a', ['a0', 'a1']), [basis(DIMS, 0), basis(DIMS, 1)]);
    await store.add(record('b', 1), chunksOf('b', ['b0']), [basis(DIMS, 0, 1, 0.1)]);
    await store.add(record('c', 1), chunksOf('c', ['c0']), [basis(DIMS, 5)]);
    expect(await store.deleteDocument('a')).toBe(true);
    expect(await store.deleteDocument('a')).toBe(false);
    expect(await store.count()).toBe(2);
    expect((await store.listDocuments()).map((d) => d.id)).toEqual(['b', 'c']);
    expect((await store.search(basis(DIMS, 0), 5)).map((h) => h.chunk.id)).toEqual(['b:0', 'c:0']);
    expect(await store.getChunks(['a:0', 'c:0', 'b:0'])).toEqual([
      chunksOf('c', ['c0'])[0],
      chunksOf('b', ['b0'])[0],
    ]);
    expect((await all(store.chunks())).map((c) => c.id)).toEqual(['b:0', 'c:0']);
  });

  it('lists every chunk document by document, in order', async () => {
    const texts = Array.from({ length: 1203 }, (_, i) => `chunk ${i}`);
    const vectors = texts.map((_, i) => basis(DIMS, i % DIMS));
    await store.add(record('big', texts.length), chunksOf('big', texts), vectors);
    await store.add(record('small', 1), chunksOf('small', ['s']), [basis(DIMS, 0)]);
    const ids = (await all(store.chunks())).map((c) => c.id);
    expect(ids).toEqual([...texts.map((_, i) => `big:${i}`), 'small:0']);
  });

  it('survives a restart', async () => {
    await store.add(record('a', 2), chunksOf('a', ['a0', 'a1']), [basis(DIMS, 0), basis(DIMS, 1)]);
    await store.add(record('b', 1), chunksOf('b', ['b0']), [basis(DIMS, 2)]);
    await store.deleteDocument('b');
    await store.close();
    const reopened = await openStore();
    expect(await reopened.count()).toBe(2);
    expect(await reopened.listDocuments()).toEqual([record('a', 2)]);
    expect((await reopened.search(basis(DIMS, 1), 1))[0].chunk.id).toBe('a:1');
  });

  it('refuses vectors of another embedder unless told to reset', async () => {
    await store.add(record('a', 1), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    await store.close();
    const error = await rejection(kind.open(place, { embedderId: 'other-model' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(
      'is other-model (8 dimensions) but the vector store was built with test-embedder:8 (8 dimensions)',
    );
    const reset = await openStore({
      embedderId: 'other-model',
      dimensions: 4,
      onEmbedderChange: 'reset',
    });
    expect(await reset.count()).toBe(0);
    await reset.add(record('n', 1), chunksOf('n', ['new']), [[0, 0, 1, 0]]);
    expect((await reset.search([0, 0, 1, 0], 1))[0].chunk.text).toBe('new');
  });

  it('answers bad input with 422 and a zero query with nothing', async () => {
    await store.add(record('a', 1), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    expect((await rejection(store.search([1, 2, 3], 5))).statusCode).toBe(422);
    expect((await rejection(store.search(basis(DIMS, 0), 0))).statusCode).toBe(422);
    expect(
      (await rejection(store.add(record('x', 1), chunksOf('x', ['x']), [[1]]))).statusCode,
    ).toBe(422);
    expect((await rejection(store.add(record('x', 1), chunksOf('x', ['x']), []))).statusCode).toBe(
      422,
    );
    expect(await store.search(new Array<number>(DIMS).fill(0), 5)).toEqual([]);
    expect(await store.count()).toBe(1);
  });

  it('clears everything', async () => {
    await store.add(record('a', 1), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    await store.clear();
    expect(await store.count()).toBe(0);
    expect(await store.listDocuments()).toEqual([]);
  });

  it('shows each owner its own documents and the shared ones, and nothing else', async () => {
    // A's chunk is the closest to the query, B's next, the shared one last.
    await store.add(owned('a', 'A'), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    await store.add(owned('b', 'B'), chunksOf('b', ['b0']), [basis(DIMS, 0, 1, 0.3)]);
    await store.add(record('s', 1), chunksOf('s', ['s0']), [basis(DIMS, 0, 1, 1)]);
    const ids = async (scope?: DocumentScope, k = 1) =>
      (await store.search(basis(DIMS, 0), k, scope)).map((h) => h.chunk.id);

    // k = 1: the best VISIBLE chunk, not the best chunk filtered away afterwards.
    expect(await ids({ owner: 'B' })).toEqual(['b:0']);
    expect(await ids({ owner: 'A' })).toEqual(['a:0']);
    expect(await ids()).toEqual(['s:0']);
    expect(await ids({ owner: 'C' }, 5)).toEqual(['s:0']);
    expect(await ids({ owner: 'B' }, 5)).toEqual(['b:0', 's:0']);
    expect(await ids({ all: true }, 5)).toEqual(['a:0', 'b:0', 's:0']);

    const listed = async (scope?: DocumentScope) =>
      (await store.listDocuments(scope)).map((d) => d.id);
    expect(await listed({ owner: 'B' })).toEqual(['b', 's']);
    expect(await listed()).toEqual(['s']);
    expect(await listed({ all: true })).toEqual(['a', 'b', 's']);
    expect(await store.getDocument('a', { owner: 'A' })).toEqual(owned('a', 'A'));
    expect(await store.getDocument('a', { owner: 'B' })).toBeUndefined();
    expect(await store.getDocument('a')).toBeUndefined();
    expect(await store.getDocument('s', { owner: 'B' })).toEqual(record('s', 1));
    expect((await store.getChunks(['a:0', 'b:0', 's:0'], { owner: 'B' })).map((c) => c.id)).toEqual(
      ['b:0', 's:0'],
    );
    expect((await all(store.chunks({ owner: 'A' }))).map((c) => c.id)).toEqual(['a:0', 's:0']);
    expect((await all(store.chunks({ all: true }))).map((c) => c.id)).toEqual([
      'a:0',
      'b:0',
      's:0',
    ]);
    expect(await store.count()).toBe(3);

    // Deleting: only one's own documents; shared ones only without an owner.
    expect(await store.deleteDocument('a', { owner: 'B' })).toBe(false);
    expect(await store.deleteDocument('s', { owner: 'A' })).toBe(false);
    expect(await store.deleteDocument('a')).toBe(false);
    expect(await listed({ all: true })).toEqual(['a', 'b', 's']);
    expect(await store.deleteDocument('a', { owner: 'A' })).toBe(true);
    expect(await store.deleteDocument('s')).toBe(true);
    expect(await ids({ owner: 'A' }, 5)).toEqual([]);
    expect(await ids({ owner: 'B' }, 5)).toEqual(['b:0']);
  });

  it('ranks within the visible chunks however many closer ones belong to others', async () => {
    // 300 chunks of another owner right on the query, 3 shared ones further away: a filter
    // applied after an index's first candidates would leave nothing.
    const texts = Array.from({ length: 300 }, (_, i) => `other ${i}`);
    const near = texts.map((_, i) => basis(DIMS, 0, 1 + (i % 3), 0.01 * (1 + (i % 7))));
    await store.add(owned('o', 'other'), chunksOf('o', texts), near);
    await store.add(record('s', 3), chunksOf('s', ['s0', 's1', 's2']), [
      basis(DIMS, 5, 0, 0.5),
      basis(DIMS, 6, 0, 0.4),
      basis(DIMS, 7, 0, 0.3),
    ]);
    const hits = await store.search(basis(DIMS, 0), 3, { owner: 'me' });
    expect(hits.map((h) => h.chunk.id)).toEqual(['s:0', 's:1', 's:2']);
    expect((await store.search(basis(DIMS, 0), 3)).map((h) => h.chunk.id)).toEqual([
      's:0',
      's:1',
      's:2',
    ]);
    expect((await store.search(basis(DIMS, 0), 3, { owner: 'other' }))[0].chunk.documentId).toBe(
      'o',
    );
  });

  it('keeps owners across a restart', async () => {
    await store.add(owned('a', 'A'), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    await store.add(record('s', 1), chunksOf('s', ['s0']), [basis(DIMS, 1)]);
    await store.close();
    const reopened = await openStore();
    expect(
      (await reopened.search(basis(DIMS, 0), 5, { owner: 'B' })).map((h) => h.chunk.id),
    ).toEqual(['s:0']);
    expect(await reopened.getDocument('a', { owner: 'A' })).toEqual(owned('a', 'A'));
    expect(await reopened.deleteDocument('a', { owner: 'B' })).toBe(false);
  });

  it('answers an unusable owner with 422 and stores nothing', async () => {
    for (const owner of ['', 'nul\u0000byte', 'x'.repeat(513)]) {
      expect((await rejection(store.search(basis(DIMS, 0), 1, { owner }))).statusCode).toBe(422);
      expect((await rejection(store.listDocuments({ owner }))).statusCode).toBe(422);
      expect(
        (await rejection(store.add(owned('x', owner), chunksOf('x', ['x']), [basis(DIMS, 0)])))
          .statusCode,
      ).toBe(422);
    }
    expect(await store.count()).toBe(0);
  });

  it('refuses calls after close with 503, and closes twice quietly', async () => {
    await store.close();
    await store.close();
    expect((await rejection(store.count())).statusCode).toBe(503);
    expect((await rejection(store.search(basis(DIMS, 0), 1))).statusCode).toBe(503);
  });
});
