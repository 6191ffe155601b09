import MiniSearch from 'minisearch';
import type { Chunk } from '../chunking/chunk.types.js';
import { normalizeTerm, words } from '../embedding/tokenize.js';

/** A chunk id and its BM25 score (higher is better; not bounded). */
export interface KeywordMatch {
  id: string;
  score: number;
}

/** Options of {@link Bm25Index}. */
export interface Bm25IndexOptions {
  /** Also match query words as prefixes (`vacat` finds `vacation`), at half weight. @default true */
  prefix?: boolean;
  /** Tolerate typos: edit distance up to this fraction of a word's length, at a low weight. @default 0.2 */
  fuzzy?: number;
}

/**
 * Keyword search over chunks with BM25 (MiniSearch): the offline retrieval method, and the
 * lexical half of hybrid search. Terms are the same as the offline embedder's (`tokenize`:
 * accents folded, stop words dropped, light stemming). Lives in memory; rebuilt from the vector
 * store's chunks at start-up.
 *
 * @example
 * const bm25 = new Bm25Index();
 * bm25.add(chunks);
 * bm25.search('how many vacation days', 5); // [{ id: 'a1:3', score: 7.2 }, …]
 * bm25.removeDocument('a1');
 */
export class Bm25Index {
  private readonly index: MiniSearch<{ id: string; text: string }>;
  private readonly byDocument = new Map<string, string[]>();

  constructor(options: Bm25IndexOptions = {}) {
    const prefix = options.prefix ?? true;
    const fuzzy = options.fuzzy ?? 0.2;
    this.index = new MiniSearch({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => words(text),
      processTerm: (term) => normalizeTerm(term) ?? false,
      searchOptions: {
        // Prefix and fuzzy matching only for words long enough not to match everything.
        prefix: prefix ? (term) => term.length >= 4 : false,
        fuzzy: fuzzy > 0 ? (term) => (term.length >= 5 ? fuzzy : false) : false,
        weights: { prefix: 0.5, fuzzy: 0.3 },
      },
    });
  }

  /** Number of indexed chunks. */
  get size(): number {
    return this.index.documentCount;
  }

  /** Indexes chunks (a chunk id already present is replaced). */
  add(chunks: Iterable<Chunk>): void {
    for (const chunk of chunks) {
      if (this.index.has(chunk.id)) this.index.discard(chunk.id);
      else {
        const ids = this.byDocument.get(chunk.documentId) ?? [];
        ids.push(chunk.id);
        this.byDocument.set(chunk.documentId, ids);
      }
      this.index.add({ id: chunk.id, text: chunk.text });
    }
  }

  /** Forgets every chunk of a document; false when none was indexed. */
  removeDocument(documentId: string): boolean {
    const ids = this.byDocument.get(documentId);
    if (!ids) return false;
    this.index.discardAll(ids);
    this.byDocument.delete(documentId);
    return true;
  }

  /** The `topK` best chunks for a query (any term may match), best first. */
  search(query: string, topK: number): KeywordMatch[] {
    return this.index
      .search(query)
      .slice(0, topK)
      .map((hit) => ({ id: String(hit.id), score: hit.score }));
  }

  /** Forgets everything. */
  clear(): void {
    this.index.removeAll();
    this.byDocument.clear();
  }
}
