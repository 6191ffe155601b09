import { ConfigError } from '../../errors/config.error.js';
import type { Chunk } from '../chunking/chunk.types.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { assertTopK } from '../stores/vector-math.js';
import type { VectorStore } from '../stores/vector-store.interface.js';
import type { Bm25Index, KeywordMatch } from './bm25.index.js';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import { resolveRelevanceFloor, type RelevanceFloor } from './relevance-floor.js';

/**
 * How chunks are found: `bm25` (keywords only, no embeddings needed), `vector` (cosine
 * similarity of embeddings), `hybrid` (both, fused by reciprocal rank).
 */
export type RetrievalMode = 'bm25' | 'vector' | 'hybrid';

/** A retrieved chunk with the score of the mode that found it. */
export interface RetrievedChunk {
  chunk: Chunk;
  /**
   * `bm25`: BM25 score (unbounded, higher is better); `vector`: cosine similarity (0…1; chunks
   * below the vector floor, or at 0 or below, are never returned);
   * `hybrid`: reciprocal-rank-fusion score (at most 2 / (rrfK + 1)).
   */
  score: number;
}

/** Options of {@link Retriever}. */
export interface RetrieverOptions {
  mode: RetrievalMode;
  store: VectorStore;
  embedder: Embedder;
  /** Needed for `bm25` and `hybrid`. */
  bm25?: Bm25Index;
  /** Hybrid: how many candidates each method contributes, as a multiple of top-k. @default 4 */
  candidateFactor?: number;
  /** Hybrid: the RRF damping constant. @default 60 */
  rrfK?: number;
  /**
   * The relevance floor: chunks below it are not returned, so an unrelated query gets no
   * chunks at all. `{ keyword: 0, vector: 0 }` turns it off.
   * @default { keyword: 0.15, vector: embedder.minSimilarity ?? 0 } (see {@link RelevanceFloor})
   */
  minScore?: RelevanceFloor;
}

/**
 * Finds the chunks that best answer a query, by keywords, vectors or both, and says which:
 * `retriever.mode`.
 *
 * @example
 * const retriever = new Retriever({ mode: 'hybrid', store, embedder, bm25 });
 * const top = await retriever.retrieve('How long is parental leave?', 5);
 */
export class Retriever {
  readonly mode: RetrievalMode;
  /** The floor in force, defaults filled in. */
  readonly minScore: Required<RelevanceFloor>;

  constructor(private readonly options: RetrieverOptions) {
    this.mode = options.mode;
    if (!['bm25', 'vector', 'hybrid'].includes(options.mode)) {
      throw new ConfigError(
        'rag.retrieval',
        `must be bm25, vector or hybrid (got "${String(options.mode)}")`,
        'Retriever options',
      );
    }
    if (options.mode !== 'vector' && !options.bm25) {
      throw new ConfigError(
        'rag.retrieval',
        `${options.mode} needs a Bm25Index`,
        'Retriever options',
      );
    }
    this.minScore = resolveRelevanceFloor(options.minScore, options.embedder);
  }

  /**
   * The `topK` best chunks for `query` that pass the relevance floor ({@link minScore}), best
   * first: none when nothing in the documents is related.
   */
  async retrieve(query: string, topK: number): Promise<RetrievedChunk[]> {
    assertTopK(topK);
    const { store } = this.options;
    const floor = this.minScore;
    if (this.mode === 'bm25') return this.resolve(this.keywords(query, topK, floor.keyword));
    const depth = Math.max(topK * (this.options.candidateFactor ?? 4), 20);
    if (this.mode === 'vector') {
      const hits = above(await store.search(await this.embed(query), depth), 0);
      const covered = new Set(
        this.keywords(query, Number.MAX_SAFE_INTEGER, floor.keyword).map((h) => h.id),
      );
      // Ranked by similarity; kept when similar enough, or when the keywords vouch for it.
      return hits.filter((h) => h.score >= floor.vector || covered.has(h.chunk.id)).slice(0, topK);
    }
    const [keyword, vector] = await Promise.all([
      Promise.resolve(this.keywords(query, depth, 0)),
      this.embed(query).then(async (v) => above(await store.search(v, depth), 0)),
    ]);
    // Ranks come from the full lists; a chunk is kept if either of its matches passes its floor.
    const relevant = new Set([
      ...keyword.filter((h) => h.coverage >= floor.keyword).map((h) => h.id),
      ...vector.filter((h) => h.score >= floor.vector).map((h) => h.chunk.id),
    ]);
    const fused = reciprocalRankFusion(
      [keyword.map((h) => h.id), vector.map((h) => h.chunk.id)],
      this.options.rrfK ?? 60,
    )
      .filter((f) => relevant.has(f.id))
      .slice(0, topK);
    const known = new Map(vector.map((h) => [h.chunk.id, h.chunk]));
    const missing = fused.filter((f) => !known.has(f.id)).map((f) => f.id);
    for (const chunk of await store.getChunks(missing)) known.set(chunk.id, chunk);
    return fused.flatMap((f) => {
      const chunk = known.get(f.id);
      return chunk ? [{ chunk, score: f.score }] : [];
    });
  }

  private keywords(query: string, topK: number, minCoverage: number): KeywordMatch[] {
    // The constructor guarantees a BM25 index in the modes that call this.
    return this.options.bm25?.search(query, topK, minCoverage) ?? [];
  }

  private async embed(query: string): Promise<number[]> {
    const [vector] = await this.options.embedder.embed([query]);
    return vector;
  }

  private async resolve(hits: { id: string; score: number }[]): Promise<RetrievedChunk[]> {
    const chunks = await this.options.store.getChunks(hits.map((h) => h.id));
    const byId = new Map(chunks.map((c) => [c.id, c]));
    return hits.flatMap((h) => {
      const chunk = byId.get(h.id);
      return chunk ? [{ chunk, score: h.score }] : [];
    });
  }
}

/** Hits at or above the floor; a cosine similarity of 0 or less ("nothing in common") never. */
function above<T extends { score: number }>(hits: T[], floor: number): T[] {
  return hits.filter((hit) => hit.score > 0 && hit.score >= floor);
}
