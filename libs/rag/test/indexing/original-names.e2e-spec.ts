import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { HashingEmbedder } from '../../src/embedding/hashing.embedder.js';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import { buildPdf } from '../__fixtures__/build-pdf.js';

const PDF = buildPdf([[['Handbook: the greenhouse irrigation pump is serviced every spring.']]]);
const NOTES = Buffer.from('Meeting notes: the canteen serves vegetarian lasagne on Wednesdays.');

/** The document names a search shows. */
async function shown(index: DocumentIndex, query: string): Promise<string[]> {
  return (await index.search(query, 5)).map((r) => r.document.filename);
}

describe('original file names through index rebuilds', () => {
  let root: string;
  let documentsDir: string;
  let indexDir: string;
  const open = (dimensions = 384) =>
    DocumentIndex.open({
      documentsDir,
      indexDir,
      embedder: new HashingEmbedder({ dimensions }),
    });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tk-rag-names-'));
    documentsDir = join(root, 'documents');
    indexDir = join(root, 'index');
    const index = await open();
    await index.ingest(PDF, 'handbook.pdf');
    await index.ingest(NOTES, 'C:\\Users\\me\\notes 2024.txt');
    await index.close();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores files under hash names but shows the uploaded names after the index is deleted', async () => {
    const stored = await readdir(documentsDir);
    expect(stored.filter((f) => !f.startsWith('.'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^[a-f0-9]{32}\.pdf$/)]),
    );
    expect(stored.some((f) => f.includes('handbook'))).toBe(false);

    await rm(indexDir, { recursive: true, force: true });
    const index = await open();
    try {
      expect(await index.listDocuments()).toEqual([]);
      const report = await index.indexFolder();
      expect(report.filesIndexed).toBe(2);
      expect(await shown(index, 'greenhouse irrigation pump')).toEqual(['handbook.pdf']);
      expect(await shown(index, 'vegetarian lasagne')).toEqual(['notes 2024.txt']);
      expect((await index.listDocuments()).map((d) => d.filename).sort()).toEqual([
        'handbook.pdf',
        'notes 2024.txt',
      ]);
    } finally {
      await index.close();
    }
  });

  it('keeps the names when a new embedder resets the index', async () => {
    const index = await open(256);
    try {
      await index.indexFolder();
      expect(await shown(index, 'greenhouse irrigation pump')).toEqual(['handbook.pdf']);
    } finally {
      await index.close();
    }
  });

  it('keeps the name when a stored file is ingested again under its stored name', async () => {
    await rm(indexDir, { recursive: true, force: true });
    const index = await open();
    try {
      const [pdf] = (await readdir(documentsDir)).filter((f) => f.endsWith('.pdf'));
      const { document } = await index.ingest(PDF, pdf);
      expect(document.filename).toBe('handbook.pdf');
    } finally {
      await index.close();
    }
  });

  it('forgets the name of a deleted document', async () => {
    const index = await open();
    try {
      const [handbook] = (await index.listDocuments()).filter((d) => d.filename === 'handbook.pdf');
      expect(await index.deleteDocument(handbook.id)).toBe(true);
      const names = await readFile(join(documentsDir, '.names.json'), 'utf8');
      expect(names).not.toContain('handbook.pdf');
      expect(names).toContain('notes 2024.txt');
      // The same content uploaded later under another name shows that name, even after a rebuild.
      await index.ingest(PDF, 'handbook-v2.pdf');
    } finally {
      await index.close();
    }
    await rm(indexDir, { recursive: true, force: true });
    const rebuilt = await open();
    try {
      await rebuilt.indexFolder();
      expect(await shown(rebuilt, 'greenhouse irrigation pump')).toEqual(['handbook-v2.pdf']);
    } finally {
      await rebuilt.close();
    }
  });

  it.each([
    ['missing', null],
    ['corrupt', '{ not json'],
    ['of another shape', '{"names": ["handbook.pdf"]}'],
  ])(
    'opens a store whose names file is %s, showing the stored names',
    async (_, content: string | null) => {
      const namesFile = join(documentsDir, '.names.json');
      if (content === null) await rm(namesFile);
      else await writeFile(namesFile, content);
      await rm(indexDir, { recursive: true, force: true });
      const index = await open();
      try {
        await index.indexFolder();
        expect(await shown(index, 'greenhouse irrigation pump')).toEqual([
          expect.stringMatching(/^[a-f0-9]{32}\.pdf$/),
        ]);
      } finally {
        await index.close();
      }
    },
  );
});
