import MiniSearch from 'minisearch';
import type { Chunk } from '../chunking/chunk.types.js';
import { normalizeTerm, tokenize, words } from '../embedding/tokenize.js';
import { assertOwner, resolveScope, type DocumentScope } from '../stores/document-scope.js';

/** A chunk id, its BM25 score and how much of the query it covers. */
export interface KeywordMatch {
  id: string;
  /** BM25 score: higher is better, not bounded (its scale depends on the query and corpus). */
  score: number;
  /**
   * The share of the query the chunk contains, from 0 to 1, each query term weighted by its
   * rarity (BM25 inverse document frequency; a term no chunk contains weighs most): an exact
   * term counts fully, a prefix or typo match a quarter. Comparable across queries, unlike `score`:
   * the relevance floor of keyword retrieval (see {@link queryCoverage}).
   */
  coverage: number;
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
 * Chunks added with an owner are found only by searches in that owner's scope (or `all`); the
 * filter runs inside the search, before the top k are taken, so another owner's chunks never
 * take a place in them. The term statistics (rarity of a word) are those of every chunk.
 *
 * @example
 * const bm25 = new Bm25Index();
 * bm25.add(chunks);                        // shared
 * bm25.add(notes, { owner: session });    // the session's own
 * bm25.search('how many vacation days', 5, 0, { owner: session }); // [{ id: 'a1:3', score: 7.2 }, …]
 * bm25.removeDocument('a1');
 */
export class Bm25Index {
  private readonly index: MiniSearch<{ id: string; text: string }>;
  private readonly byDocument = new Map<string, string[]>();
  /** The distinct terms of each chunk, and in how many chunks each term occurs. */
  private readonly termsOf = new Map<string, ReadonlySet<string>>();
  private readonly chunkFrequency = new Map<string, number>();
  /** The owner of each owned chunk; shared chunks are not in it. */
  private readonly ownerOf = new Map<string, string>();

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

  /**
   * Indexes chunks (a chunk id already present is replaced), as `owner`'s (shared without
   * one).
   */
  add(chunks: Iterable<Chunk>, options: { owner?: string } = {}): void {
    const { owner } = options;
    assertOwner(owner);
    for (const chunk of chunks) {
      if (owner === undefined) this.ownerOf.delete(chunk.id);
      else this.ownerOf.set(chunk.id, owner);
      if (this.index.has(chunk.id)) {
        this.index.discard(chunk.id);
        this.forgetTerms(chunk.id);
      } else {
        const ids = this.byDocument.get(chunk.documentId) ?? [];
        ids.push(chunk.id);
        this.byDocument.set(chunk.documentId, ids);
      }
      this.index.add({ id: chunk.id, text: chunk.text });
      const terms = new Set(tokenize(chunk.text));
      this.termsOf.set(chunk.id, terms);
      for (const term of terms) {
        this.chunkFrequency.set(term, (this.chunkFrequency.get(term) ?? 0) + 1);
      }
    }
  }

  /** Forgets every chunk of a document; false when none was indexed. */
  removeDocument(documentId: string): boolean {
    const ids = this.byDocument.get(documentId);
    if (!ids) return false;
    this.index.discardAll(ids);
    for (const id of ids) {
      this.forgetTerms(id);
      this.ownerOf.delete(id);
    }
    this.byDocument.delete(documentId);
    return true;
  }

  /**
   * The `topK` best chunks for a query (any term may match) among those visible in `scope`
   * (shared ones only without it), best first. With `minCoverage`, chunks covering less of the
   * query (see {@link KeywordMatch.coverage}) are left out first.
   */
  search(query: string, topK: number, minCoverage = 0, scope?: DocumentScope): KeywordMatch[] {
    const visible = resolveScope(scope);
    const weights = this.queryWeights(query);
    const out: KeywordMatch[] = [];
    const filter =
      visible.all === true || this.ownerOf.size === 0
        ? undefined
        : (hit: { id: unknown }) => {
            const owner = this.ownerOf.get(String(hit.id));
            return owner === undefined || owner === visible.owner;
          };
    for (const hit of this.index.search(query, filter ? { filter } : {})) {
      if (out.length >= topK) break;
      const id = String(hit.id);
      const terms = this.termsOf.get(id) ?? new Set<string>();
      const coverage = queryCoverage(weights, terms, hit.queryTerms);
      if (coverage >= minCoverage) out.push({ id, score: hit.score, coverage });
    }
    return out;
  }

  /** Forgets everything. */
  clear(): void {
    this.index.removeAll();
    this.byDocument.clear();
    this.termsOf.clear();
    this.chunkFrequency.clear();
    this.ownerOf.clear();
  }

  /** The query's distinct terms, each with its BM25 inverse document frequency. */
  private queryWeights(query: string): Map<string, number> {
    const n = this.index.documentCount;
    const weights = new Map<string, number>();
    for (const term of tokenize(query)) {
      const df = this.chunkFrequency.get(term) ?? 0;
      weights.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    }
    return weights;
  }

  private forgetTerms(chunkId: string): void {
    for (const term of this.termsOf.get(chunkId) ?? []) {
      const left = (this.chunkFrequency.get(term) ?? 0) - 1;
      if (left > 0) this.chunkFrequency.set(term, left);
      else this.chunkFrequency.delete(term);
    }
    this.termsOf.delete(chunkId);
  }
}

/**
 * What a query term the chunk matches only by prefix or typo counts toward coverage: enough
 * for a one-word query with a typo to pass the default floor, too little for a stray near-miss
 * (`planet` ~ `plant`) to make an unrelated question look covered.
 */
const PARTIAL_MATCH_WEIGHT = 0.25;

/**
 * The share of a query's weight a chunk covers: the weights of the query terms the chunk
 * contains, plus a quarter of those of the terms it matched only by prefix or typo (`matched`),
 * over all the query's weights; 0 for a query without terms.
 */
export function queryCoverage(
  weights: ReadonlyMap<string, number>,
  chunkTerms: ReadonlySet<string>,
  matched: readonly string[],
): number {
  let total = 0;
  let covered = 0;
  const partial = new Set(matched);
  for (const [term, weight] of weights) {
    total += weight;
    if (chunkTerms.has(term)) covered += weight;
    else if (partial.has(term)) covered += weight * PARTIAL_MATCH_WEIGHT;
  }
  return total > 0 ? covered / total : 0;
}
