import type { DocumentIndex } from '../../src/indexing/document-index.js';
import { loadDocument } from '../../src/loaders/load-document.js';
import { QUESTIONS } from '../__fixtures__/corpus.js';
import type { CorpusFile } from './corpus-files.js';

/** Where each labelled question's passage sits in its document's extracted text. */
export type PassageSpans = Map<string, { start: number; end: number }>;

/** recall@k and MRR of an index on the labelled questions, and the questions it missed. */
export interface RecallReport {
  recall: number;
  mrr: number;
  misses: string[];
}

/** Where a question's passage sits in its document's extracted text (whitespace-insensitive). */
function locate(text: string, passage: string): { start: number; end: number } {
  const pattern = new RegExp(
    passage
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
  );
  const match = pattern.exec(text);
  if (!match) throw new Error(`passage not found: ${passage}`);
  return { start: match.index, end: match.index + match[0].length };
}

/** Locates every labelled passage in the extracted text of the corpus files. */
export async function passageSpans(files: CorpusFile[]): Promise<PassageSpans> {
  const spans: PassageSpans = new Map();
  for (const file of files) {
    const { text } = await loadDocument(file.content, file.filename);
    for (const q of QUESTIONS.filter((q) => q.document === file.name)) {
      spans.set(q.question, locate(text, q.passage));
    }
  }
  return spans;
}

/**
 * Searches every labelled question: a hit is a result from the right document covering at
 * least half of the answering passage within the first `k`. `names` maps document ids to
 * corpus names.
 */
export async function measureRecall(
  index: DocumentIndex,
  names: ReadonlyMap<string, string>,
  spans: PassageSpans,
  k: number,
): Promise<RecallReport> {
  let hits = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const q of QUESTIONS) {
    const span = spans.get(q.question);
    if (!span) throw new Error(`no passage located for: ${q.question}`);
    const results = await index.search(q.question, k);
    const rank = results.findIndex((r) => {
      if (names.get(r.document.id) !== q.document) return false;
      const overlap = Math.min(r.chunk.end, span.end) - Math.max(r.chunk.start, span.start);
      return overlap >= (span.end - span.start) / 2;
    });
    if (rank >= 0) {
      hits += 1;
      reciprocal += 1 / (rank + 1);
    } else misses.push(q.question);
  }
  return { recall: hits / QUESTIONS.length, mrr: reciprocal / QUESTIONS.length, misses };
}
