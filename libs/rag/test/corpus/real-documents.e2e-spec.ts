import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Chunk } from '../../src/chunking/chunk.types.js';
import { DocumentIndex } from '../../src/indexing/document-index.js';
import type { IngestResult } from '../../src/indexing/ingest-result.js';
import { loadDocument } from '../../src/loaders/load-document.js';
import { ALL_DOCUMENTS } from '../../src/stores/document-scope.js';
import { comparableText, mammothText } from '../support/docx-oracle.js';
import {
  buildCorpusCommand,
  corpusDir,
  readCorpus,
  readCorpusFile,
  readCorpusSource,
  type CorpusEntry,
  type RealCorpus,
} from './real-corpus.js';
import { distinctivePhrase, htmlVisibleText, wordCoverage } from './text-oracle.js';

/**
 * Least share of the source HTML's distinct words (4+ letters) a LibreOffice PDF/DOCX of it must
 * yield. Measured on corpus v1: 1.000 for all seven (see the table this test prints); a Japanese
 * PDF made without a CJK font, every character the same placeholder glyph, gave 0.806.
 */
const MIN_SOURCE_COVERAGE = 0.9;
/** Least share of mammoth's words our DOCX text must have (measured: 1.00 on corpus v1). */
const MIN_MAMMOTH_COVERAGE = 0.98;

/** What ingesting one corpus file gave. */
interface Outcome {
  entry: CorpusEntry;
  bytes: Buffer;
  result?: IngestResult;
  error?: unknown;
  ms: number;
  /** The process's peak resident memory after this file, in MiB (parser threads included). */
  peakMb: number;
  chunks: Chunk[];
  text?: string;
  coverage?: number;
  mammoth?: number;
  /** DOCX: whether our text and mammoth's are the same once whitespace is ignored. */
  mammothSame?: boolean;
}

const corpus = process.env.TOOLKIT_SKIP_CORPUS === '1' ? 'skipped' : readCorpus();

if (corpus === 'skipped') {
  // Visible in every reporter, not only the verbose one.
  process.stderr.write(`real-documents: skipped because TOOLKIT_SKIP_CORPUS=1\n`);
  describe('real documents (Debian documentation corpus)', () => {
    it.skip(`skipped because TOOLKIT_SKIP_CORPUS=1 (corpus: ${corpusDir()})`, () => {});
  });
} else if (corpus === undefined) {
  describe('real documents (Debian documentation corpus)', () => {
    it('needs the corpus built', () => {
      throw new Error(
        `The real-document corpus is missing from ${corpusDir()}: build it with ` +
          `\`${buildCorpusCommand()}\` (TOOLKIT_CORPUS_DIR moves it; TOOLKIT_SKIP_CORPUS=1 skips these tests)`,
      );
    });
  });
} else {
  realDocumentSuite(corpus);
}

function realDocumentSuite(corpus: RealCorpus): void {
  describe('real documents (Debian documentation corpus)', () => {
    let root: string;
    let index: DocumentIndex;
    const outcomes = new Map<string, Outcome>();
    const outcome = (entry: CorpusEntry) => outcomes.get(entry.name) as Outcome;

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'tk-rag-corpus-'));
      index = await DocumentIndex.open({
        documentsDir: join(root, 'documents'),
        // The 1.3 MB Reference PDF took 4–26 s to parse on a 2-core machine under other load,
        // close to the default 30 s budget: this test is about reading real files, not speed.
        ingestion: { timeoutMs: 120_000 },
      });
      for (const entry of corpus.entries) {
        const bytes = readCorpusFile(corpus, entry);
        const started = performance.now();
        const ingested = await index.ingest(bytes, entry.name).then(
          (result) => ({ result }),
          (error: unknown) => ({ error }),
        );
        const ms = performance.now() - started;
        const peakMb = process.resourceUsage().maxRSS / 1024;
        outcomes.set(entry.name, { entry, bytes, ms, peakMb, chunks: [], ...ingested });
      }
      const byId = new Map([...outcomes.values()].map((o) => [o.result?.document.id, o]));
      for await (const chunk of index.store.chunks(ALL_DOCUMENTS)) {
        byId.get(chunk.documentId)?.chunks.push(chunk);
      }
      for (const o of outcomes.values()) {
        o.chunks.sort((a, b) => a.index - b.index);
        o.text = await loadDocument(o.bytes, o.entry.name).then(
          (loaded) => loaded.text,
          () => undefined,
        );
        if (o.text !== undefined && o.entry.source) {
          o.coverage = wordCoverage(htmlVisibleText(readCorpusSource(corpus, o.entry)), o.text);
        }
        if (o.text !== undefined && o.entry.type === 'docx') {
          const reference = await mammothText(o.bytes);
          o.mammoth = wordCoverage(reference, o.text);
          o.mammothSame = comparableText(reference) === comparableText(o.text);
        }
      }
      printTable([...outcomes.values()]);
    }, 600_000);

    afterAll(async () => {
      await index?.close();
      await rm(root, { recursive: true, force: true });
    });

    it.each(corpus.entries)('indexes $name', (entry) => {
      const { result, error } = outcome(entry);
      expect(error).toBeUndefined();
      expect(result?.created).toBe(true);
      expect(result?.document.type).toBe(entry.type);
      expect(result?.document.chunks).toBeGreaterThan(0);
    });

    it.each(corpus.entries)('cuts $name into chunks that cover its text', (entry) => {
      const { chunks, text, result } = outcome(entry);
      expect(text).toBeDefined();
      expect(chunks).toHaveLength(result?.document.chunks ?? -1);
      let covered = 0;
      for (const chunk of chunks) {
        expect(chunk.text).toBe(text?.slice(chunk.start, chunk.end));
        // Whatever lies between two chunks is whitespace, never words.
        expect(text?.slice(covered, chunk.start).trim() ?? '').toBe('');
        covered = Math.max(covered, chunk.end);
      }
      expect(text?.slice(covered).trim()).toBe('');
    });

    it.each(corpus.entries)('finds $name first for a phrase of its own', async (entry) => {
      const family = corpus.entries.filter((e) => sameFamily(e, entry)).map((e) => e.name);
      const others = corpus.entries.filter((e) => !sameFamily(e, entry));
      const phrase = distinctivePhrase(
        phraseSource(corpus, entry),
        others.map((e) => phraseSource(corpus, e)),
      );
      expect(phrase).toBeDefined();
      const results = await index.search(phrase ?? '', 10);
      const names = results.map((r) => r.document.filename);
      // The Reference's PDF, text and chapter hold the same sentences: any of them may rank first.
      if (!family.includes(names[0] ?? '')) {
        throw new Error(
          `"${phrase}" ranked ${names.join(', ') || 'nothing'}, not ${entry.name} first`,
        );
      }
      expect(names).toContain(entry.name);
    });

    const converted = corpus.entries.filter((e) => e.source !== undefined);
    it.each(converted)('reads most words of the HTML $name was made from', (entry) => {
      expect(outcome(entry).coverage).toBeGreaterThanOrEqual(MIN_SOURCE_COVERAGE);
    });

    const docx = corpus.entries.filter((e) => e.type === 'docx');
    it.each(docx)('reads the words mammoth reads in $name', (entry) => {
      expect(outcome(entry).mammoth).toBeGreaterThanOrEqual(MIN_MAMMOTH_COVERAGE);
    });
  });
}

function sameFamily(a: CorpusEntry, b: CorpusEntry): boolean {
  return a.name === b.name || (a.family !== undefined && a.family === b.family);
}

/** The text a document's phrase is taken from: its source, never our loaders' output. */
function phraseSource(corpus: RealCorpus, entry: CorpusEntry): string {
  if (entry.source) return htmlVisibleText(readCorpusSource(corpus, entry));
  if (entry.type === 'html') return htmlVisibleText(readCorpusFile(corpus, entry).toString('utf8'));
  if (entry.type === 'pdf') {
    // The Reference's PDF: its text edition says the same.
    const text = corpus.entries.find((e) => e.family === entry.family && e.type === 'txt');
    if (!text) throw new Error(`no text edition of ${entry.name} in the corpus`);
    return readCorpusFile(corpus, text).toString('utf8');
  }
  return readCorpusFile(corpus, entry).toString('utf8');
}

function printTable(outcomes: Outcome[]): void {
  const rows = outcomes.map((o) => [
    o.entry.name,
    o.entry.type,
    (o.bytes.length / 1024).toFixed(1),
    o.ms.toFixed(0),
    o.peakMb.toFixed(0),
    o.error ? 'FAILED' : String(o.result?.document.chunks ?? ''),
    String(o.text?.length ?? ''),
    o.coverage === undefined ? '' : o.coverage.toFixed(3),
    o.mammoth === undefined ? '' : o.mammoth.toFixed(3),
    o.mammothSame === undefined ? '' : o.mammothSame ? 'same text' : 'differs',
  ]);
  const head = [
    'file',
    'type',
    'KB',
    'ms',
    'peak RSS MB',
    'chunks',
    'chars',
    'vs HTML',
    'vs mammoth',
    '',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  const totalKb = outcomes.reduce((sum, o) => sum + o.bytes.length, 0) / 1024;
  const totalMs = outcomes.reduce((sum, o) => sum + o.ms, 0);
  const failures = outcomes
    .filter((o) => o.error)
    .map((o) => `${o.entry.name}: ${String(o.error)}`);
  process.stdout.write(
    `\nReal documents: ingestion (parse in a worker + chunk + embed + store), one file at a time\n` +
      [line(head), ...rows.map(line)].join('\n') +
      `\ntotal ${totalKb.toFixed(0)} KB in ${(totalMs / 1000).toFixed(1)} s ` +
      `(${(totalKb / (totalMs / 1000)).toFixed(0)} KB/s)\n` +
      (failures.length ? `failed:\n${failures.join('\n')}\n` : ''),
  );
}
