import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import { writeSegment } from '../../src/stores/local-store.layout.js';
import { LocalVectorStore } from '../../src/stores/local-vector.store.js';
import { basis, chunksOf, record } from '../support/records.js';

const DIMS = 4;
const open = (directory: string) =>
  LocalVectorStore.open({ directory, dimensions: DIMS, embedderId: 'e' });

describe('LocalVectorStore files', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tk-rag-local-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps store.json plus one vector and one chunk file per document, nothing temporary', async () => {
    const store = await open(dir);
    await store.add(record('a', 2), chunksOf('a', ['a0', 'a1']), [basis(DIMS, 0), [0, 2, 0, 0]]);
    await store.add(record('b', 1), chunksOf('b', ['b0']), [basis(DIMS, 2)]);
    await store.add(record('a', 1), chunksOf('a', ['a-new']), [basis(DIMS, 3)]);
    await store.close();
    expect((await readdir(dir)).sort()).toEqual(['segments', 'store.json']);
    const segments = await readdir(join(dir, 'segments'));
    expect(segments).toHaveLength(4);
    expect(segments.filter((f) => f.endsWith('.f32'))).toHaveLength(2);
    const file = JSON.parse(await readFile(join(dir, 'store.json'), 'utf8')) as {
      documents: { segment: string }[];
    };
    expect(file).toMatchObject({
      format: 'toolkit-local-vector-store',
      version: 1,
      embedderId: 'e',
      dimensions: DIMS,
    });
    const vectors = await readFile(join(dir, 'segments', `${file.documents[1].segment}.f32`));
    expect(Array.from(new Float32Array(vectors.buffer, vectors.byteOffset, DIMS))).toEqual([
      0, 0, 0, 1,
    ]);
  });

  it('drops what a crash left behind: uncommitted segments and temporary files', async () => {
    const store = await open(dir);
    await store.add(record('a', 1), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    await store.close();
    await writeSegment(
      dir,
      'uncommitted-1',
      chunksOf('x', ['x0']),
      Float32Array.from(basis(DIMS, 1)),
    );
    await writeFile(join(dir, 'segments', 'half-written.f32.123.ab.tmp'), 'partial');
    const reopened = await open(dir);
    expect((await reopened.listDocuments()).map((d) => d.id)).toEqual(['a']);
    expect(
      (await readdir(join(dir, 'segments'))).some(
        (f) => f.includes('uncommitted') || f.endsWith('.tmp'),
      ),
    ).toBe(false);
    await reopened.close();
  });

  it('applies concurrent changes one at a time, all of them durable', async () => {
    const store = await open(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.add(record(`d${i}`, 1), chunksOf(`d${i}`, [`text ${i}`]), [basis(DIMS, i % DIMS)]),
      ),
    );
    await Promise.all([store.deleteDocument('d3'), store.deleteDocument('d7')]);
    await store.close();
    const reopened = await open(dir);
    expect(await reopened.count()).toBe(18);
    expect((await reopened.listDocuments()).map((d) => d.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `d${i}`).filter((id) => id !== 'd3' && id !== 'd7'),
    );
    await reopened.close();
  });

  it.each([
    [
      'a store file of another format',
      async (d: string) => writeFile(join(d, 'store.json'), '{"format":"x"}'),
      'store.json is not a version 1 store file',
    ],
    [
      'a store file cut mid-write',
      async (d: string) => writeFile(join(d, 'store.json'), '{"format":"toolkit-loc'),
      'store.json is not valid JSON',
    ],
    [
      'a truncated vector file',
      async (d: string) => {
        const f = (await readdir(join(d, 'segments'))).find((n) => n.endsWith('.f32'))!;
        await truncate(join(d, 'segments', f), 5);
      },
      'holds 5 bytes for 1 chunks',
    ],
  ])('refuses %s with a clear error', async (_label, damage, detail) => {
    const store = await open(dir);
    await store.add(record('a', 1), chunksOf('a', ['a0']), [basis(DIMS, 0)]);
    await store.close();
    await damage(dir);
    const error = await open(dir).catch((e: unknown) => e);
    expect(ToolkitError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`Local vector store at ${dir} is damaged`);
    expect((error as Error).message).toContain(detail);
    expect((error as Error).message).toContain(
      'Delete the folder to rebuild it from the documents.',
    );
  });
});
