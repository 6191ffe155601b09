import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { rejection } from '../support/rejection.js';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import type { IndexingProgress } from '../../src/indexing/indexing-progress.js';
import { PgVectorStore } from '../../src/stores/pgvector.store.js';
import type { VectorStore } from '../../src/stores/vector-store.interface.js';
import { buildDocx } from '../__fixtures__/build-docx.js';
import { buildPdf } from '../__fixtures__/build-pdf.js';
import { buildPng } from '../__fixtures__/build-png.js';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { dropStoreTables, POSTGRES_URL, uniqueTablePrefix } from '../support/postgres.js';

const PDF = buildPdf([
  [['Greenhouse report: tomatoes ripened early this summer.']],
  [['Page two: the irrigation pump failed in August and was replaced.']],
]);
const DOCX = buildDocx(['Bicycle policy', 'Employees may park bicycles in the basement garage.']);
const HTML = Buffer.from(
  '<html><head><script>var secret = "pump";</script></head><body><nav>Home</nav><p>The canteen serves vegetarian lasagne on Wednesdays.</p></body></html>',
);

interface Setup {
  name: string;
  /** A store for the index, or undefined for the default local store. */
  store(): Promise<VectorStore | undefined>;
}

const prefixes: string[] = [];
const setups: Setup[] = [
  { name: 'local store', store: () => Promise.resolve(undefined) },
  {
    name: 'pgvector store',
    store: () => {
      const table = uniqueTablePrefix('index');
      prefixes.push(table);
      return PgVectorStore.open({
        url: POSTGRES_URL,
        table,
        dimensions: 64,
        embedderId: new CountingEmbedder().id,
      });
    },
  },
];

describe.each(setups)('DocumentIndex with the $name', (setup) => {
  let root: string;
  let documentsDir: string;
  let embedder: CountingEmbedder;
  let store: VectorStore | undefined;
  let index: DocumentIndex;
  const logs: { message: string; progress: IndexingProgress }[] = [];

  const open = () =>
    DocumentIndex.open({
      documentsDir,
      embedder,
      store,
      chunking: { size: 200, overlap: 20 },
      logger: (message, progress) => logs.push({ message, progress }),
    });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tk-rag-index-'));
    documentsDir = join(root, 'docs', 'documents');
    embedder = new CountingEmbedder();
    store = await setup.store();
    logs.length = 0;
    index = await open();
  });

  afterEach(async () => {
    await index.close();
    await store?.close();
    await rm(root, { recursive: true, force: true });
  });

  afterAll(async () => {
    for (const prefix of prefixes) await dropStoreTables(prefix);
  });

  it('ingests PDF, DOCX and HTML and finds the right one first', async () => {
    const pdf = await index.ingest(PDF, 'report.pdf');
    await index.ingest(DOCX, 'bikes.docx');
    await index.ingest(HTML, 'canteen.html');
    expect(pdf.created).toBe(true);
    expect(pdf.document).toMatchObject({
      filename: 'report.pdf',
      type: 'pdf',
      chunks: 1,
      bytes: PDF.length,
    });
    expect(pdf.document.id).toMatch(/^[0-9a-f]{32}$/);

    const [top] = await index.search('When did the irrigation pump fail?', 3);
    expect(top).toMatchObject({
      document: { id: pdf.document.id, filename: 'report.pdf', type: 'pdf' },
      chunk: { index: 0, start: 0, page: 1, pageEnd: 2 },
      mode: 'hybrid',
    });
    expect(top.text).toContain('irrigation pump failed in August');
    expect(top.score).toBeGreaterThan(0);
    expect((await index.search('where can I park my bicycle', 1))[0].document.filename).toBe(
      'bikes.docx',
    );
    // The HTML's script was stripped: only the PDF says "pump".
    const pump = await index.search('pump', 5);
    expect(pump[0].document.filename).toBe('report.pdf');
    expect(pump.filter((r) => /pump/.test(r.text)).map((r) => r.document.filename)).toEqual([
      'report.pdf',
    ]);
  });

  it('stores the same content once, under a server-generated name', async () => {
    const first = await index.ingest(PDF, '../../../etc/passwd.pdf');
    const embeddedOnce = embedder.embedded.length;
    const again = await index.ingest(PDF, 'copy-of-report.pdf');
    expect(again).toEqual({ document: first.document, created: false });
    expect(embedder.embedded).toHaveLength(embeddedOnce);
    expect(first.document.filename).toBe('passwd.pdf');
    expect(first.document.path).toBe(`${first.document.id}.pdf`);
    expect(await readdir(documentsDir)).toEqual(
      expect.arrayContaining([`${first.document.id}.pdf`]),
    );
    expect((await readdir(documentsDir)).filter((f) => !f.startsWith('.'))).toEqual([
      `${first.document.id}.pdf`,
    ]);
    expect(await readFile(join(documentsDir, `${first.document.id}.pdf`))).toEqual(PDF);
    expect(await index.listDocuments()).toHaveLength(1);
  });

  it('refuses unusable files with 415/422 and stores nothing', async () => {
    expect((await rejection(index.ingest(buildPng(), 'photo.pdf'))).statusCode).toBe(415);
    expect((await rejection(index.ingest(Buffer.alloc(0), 'empty.txt'))).statusCode).toBe(422);
    expect(
      (await rejection(index.ingest(Buffer.from('%PDF-1.4 broken'), 'x.pdf'))).statusCode,
    ).toBe(422);
    expect(await index.listDocuments()).toEqual([]);
    expect((await readdir(documentsDir).catch(() => [])).filter((f) => !f.startsWith('.'))).toEqual(
      [],
    );
  });

  it('validates queries and bounds top_k', async () => {
    await index.ingest(HTML, 'canteen.html');
    for (const [query, topK, message] of [
      ['', 5, 'Invalid parameters: query must be a non-empty string'],
      ['   ', 5, 'Invalid parameters: query must be a non-empty string'],
      ['lasagne', 100000, 'Invalid parameters: top_k must be an integer from 1 to 50 (got 100000)'],
      ['lasagne', 0, 'Invalid parameters: top_k must be an integer from 1 to 50 (got 0)'],
      ['lasagne', 2.5, 'Invalid parameters: top_k must be an integer from 1 to 50 (got 2.5)'],
    ] as const) {
      const error = await rejection(index.search(query, topK));
      expect([error.statusCode, error.message]).toEqual([422, message]);
    }
  });

  it('deletes a document from the store, the keyword index and the folder', async () => {
    const { document } = await index.ingest(PDF, 'report.pdf');
    await index.ingest(HTML, 'canteen.html');
    expect(await index.deleteDocument(document.id)).toBe(true);
    expect(await index.deleteDocument(document.id)).toBe(false);
    expect((await index.listDocuments()).map((d) => d.filename)).toEqual(['canteen.html']);
    // Neither BM25 ("pump" is only in the PDF) nor vectors return it.
    expect(
      (await index.search('irrigation pump August tomatoes', 5)).some(
        (r) => r.document.id === document.id,
      ),
    ).toBe(false);
    expect(await readdir(documentsDir)).not.toContain(`${document.id}.pdf`);
    expect(await index.store.count()).toBe(1);
  });

  it('answers the same after a restart, without re-embedding', async () => {
    await index.ingest(PDF, 'report.pdf');
    await index.ingest(DOCX, 'bikes.docx');
    const before = await index.search('bicycles basement', 2);
    await index.close();
    embedder.embedded = [];
    index = await open();
    const report = await index.indexFolder();
    expect(report).toMatchObject({
      filesTotal: 2,
      filesIndexed: 0,
      filesUnchanged: 2,
      filesFailed: 0,
    });
    expect(embedder.embedded).toEqual([]);
    expect(await index.search('bicycles basement', 2)).toEqual(before);
    expect(embedder.embedded).toEqual(['bicycles basement']);
  });

  it('indexes the folder incrementally: new, unchanged, touched, changed, removed and bad files', async () => {
    await mkdir(join(documentsDir, 'nested'), { recursive: true });
    await writeFile(join(documentsDir, 'a.txt'), 'Alpha file about apricots.');
    await writeFile(join(documentsDir, 'nested', 'b.md'), '# Beta\n\nBeta file about bananas.');
    await writeFile(join(documentsDir, 'scan.pdf'), buildPng());
    await writeFile(join(documentsDir, '.hidden.txt'), 'ignored');
    const first = await index.indexFolder();
    expect(first).toMatchObject({
      filesTotal: 3,
      filesIndexed: 2,
      filesFailed: 1,
      filesRemoved: 0,
      done: true,
    });
    expect(first.failures).toEqual([
      { file: 'scan.pdf', error: '"scan.pdf" claims to be PDF but its content is a PNG image' },
    ]);
    expect(logs.map((l) => l.message)).toContain(
      'Could not index scan.pdf: "scan.pdf" claims to be PDF but its content is a PNG image',
    );
    expect(logs.at(-1)!.message).toMatch(
      /^Indexed 3\/3 files \(2 new, 0 unchanged, 1 failed\), 2 chunks in \d+\.\d s: [\d.]+ files\/s, \d+ chunks\/s$/,
    );

    embedder.embedded = [];
    const second = await index.indexFolder();
    expect(second).toMatchObject({ filesIndexed: 0, filesUnchanged: 2, filesFailed: 1 });
    expect(embedder.embedded).toEqual([]);

    // Touched (new mtime, same bytes): read and hashed, not re-embedded.
    await utimes(join(documentsDir, 'a.txt'), new Date(), new Date(Date.now() + 5000));
    // Changed content: re-embedded, the old version dropped. Removed: dropped.
    await writeFile(join(documentsDir, 'nested', 'b.md'), 'Beta file, now about blueberries.');
    await rm(join(documentsDir, 'scan.pdf'));
    const third = await index.indexFolder();
    expect(third).toMatchObject({
      filesTotal: 2,
      filesIndexed: 1,
      filesUnchanged: 1,
      filesFailed: 0,
      filesRemoved: 1,
    });
    expect(embedder.embedded).toEqual(['Beta file, now about blueberries.']);
    expect((await index.listDocuments()).map((d) => d.filename).sort()).toEqual(['a.txt', 'b.md']);
    expect((await index.search('bananas', 5)).filter((r) => r.text.includes('bananas'))).toEqual(
      [],
    );

    await rm(join(documentsDir, 'a.txt'));
    expect(await index.indexFolder()).toMatchObject({ filesRemoved: 1 });
    expect((await index.listDocuments()).map((d) => d.filename)).toEqual(['b.md']);
  });

  it('reports progress while indexing many files', async () => {
    await mkdir(documentsDir, { recursive: true });
    for (let i = 0; i < 60; i += 1) {
      await writeFile(
        join(documentsDir, `note-${String(i).padStart(2, '0')}.txt`),
        `Note ${i} about topic ${i * 7}.`,
      );
    }
    const report = await index.indexFolder();
    expect(report).toMatchObject({ filesTotal: 60, filesIndexed: 60, chunks: 60, done: true });
    expect(report.filesPerSecond).toBeGreaterThan(0);
    expect(report.chunksPerSecond).toBeGreaterThan(0);
    const progress = logs.map((l) => l.progress);
    expect(progress.filter((p) => !p.done).map((p) => p.filesDone)).toEqual(
      expect.arrayContaining([25, 50]),
    );
    expect(progress.at(-1)).toMatchObject({ filesDone: 60, done: true });
    // A report also comes every 2 s, so on a loaded machine others may come before the 25th file.
    expect(logs.find((l) => l.progress.filesDone === 25)?.message).toMatch(
      /^Indexing 25\/60 files \(25 new, 0 unchanged, 0 failed\), 25 chunks in/,
    );
    expect(await index.store.count()).toBe(60);
  });
});
