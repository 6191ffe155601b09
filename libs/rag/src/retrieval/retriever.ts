import type { TraceSpanOptions } from '../../../providers/src/index.js';
import { ConfigError, recordsContent, traced } from '../../../providers/src/internal.js';
import { RAG_ATTRIBUTE, RAG_SPAN } from '../rag-spans.js';
import type { Chunk } from '../chunking/chunk.types.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { resolveScope, type DocumentScope } from '../stores/document-scope.js';
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
  /**
   * The signals the relevance floor was applied to, when computed: the chunk's keyword
   * coverage of the query (`KeywordMatch.coverage`, 0…1) and its cosine similarity to it.
   */
  coverage?: number;
  similarity?: number;
}

/** Options of {@link Retriever}. */
export interface RetrieverOptions {
  mode: RetrievalMode;
  store: VectorStore;
  embedder: Embedder;
  /**
   * Needed for `bm25` and `hybrid`. Optional in `vector` mode, where it lets a chunk the
   * keywords cover pass the relevance floor even below the similarity floor.
   */
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
  private readonly spanOptions: TraceSpanOptions;

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
    this.spanOptions = { kind: 'internal', attributes: { [RAG_ATTRIBUTE.mode]: options.mode } };
  }

  /**
   * The `topK` best chunks for `query` that pass the relevance floor ({@link minScore}), best
   * first: none when nothing in the documents is related. Only chunks visible in `scope` (see
   * `DocumentScope`; shared ones without it) are ranked, by the keyword index and by the store
   * alike, so another owner's chunk never takes a place nor reaches a prompt. While tracing is on
   * it is a `toolkit.rag.retrieve` span (mode, top-k, results; the query only when
   * `telemetry.record_content` is on), the parent of the query's embedding call.
   */
  retrieve(query: string, topK: number, scope?: DocumentScope): Promise<RetrievedChunk[]> {
    return traced(RAG_SPAN.retrieve, this.spanOptions, async (span) => {
      if (span.recording) {
        span.setAttributes({
          [RAG_ATTRIBUTE.topK]: topK,
          [RAG_ATTRIBUTE.query]: recordsContent() ? query : undefined,
        });
      }
      const found = await this.rank(query, topK, scope);
      if (span.recording) span.setAttributes({ [RAG_ATTRIBUTE.results]: found.length });
      return found;
    });
  }

  private async rank(
    query: string,
    topK: number,
    scope: DocumentScope | undefined,
  ): Promise<RetrievedChunk[]> {
    assertTopK(topK);
    const visible = resolveScope(scope);
    const { store } = this.options;
    const floor = this.minScore;
    if (this.mode === 'bm25') {
      const hits = this.keywords(query, topK, floor.keyword, visible);
      const chunks = await this.chunks(
        hits.map((h) => h.id),
        visible,
      );
      return hits.flatMap(({ id, score, coverage }) => {
        const chunk = chunks.get(id);
        return chunk ? [{ chunk, score, coverage }] : [];
      });
    }
    const depth = Math.max(topK * (this.options.candidateFactor ?? 4), 20);
    const [keyword, vector] = await Promise.all([
      Promise.resolve(this.keywords(query, this.mode === 'vector' ? Infinity : depth, 0, visible)),
      this.embed(query).then(async (v) => above(await store.search(v, depth, visible), 0)),
    ]);
    const coverage = new Map(keyword.map((h) => [h.id, h.coverage]));
    const similarity = new Map(vector.map((h) => [h.chunk.id, h.score]));
    const signals = (id: string) => ({
      ...(coverage.has(id) && { coverage: coverage.get(id) }),
      ...(similarity.has(id) && { similarity: similarity.get(id) }),
    });
    // A chunk is kept when either its keywords or its vector passes its floor.
    const relevant = (id: string) =>
      (coverage.get(id) ?? -1) >= floor.keyword || (similarity.get(id) ?? -1) >= floor.vector;
    if (this.mode === 'vector') {
      return vector
        .filter((h) => relevant(h.chunk.id))
        .slice(0, topK)
        .map((h) => ({ chunk: h.chunk, score: h.score, ...signals(h.chunk.id) }));
    }
    // Ranks come from the full lists, so the fused scores do not depend on the floor.
    const fused = reciprocalRankFusion(
      [keyword.map((h) => h.id), vector.map((h) => h.chunk.id)],
      this.options.rrfK ?? 60,
    )
      .filter((f) => relevant(f.id))
      .slice(0, topK);
    const known = new Map(vector.map((h) => [h.chunk.id, h.chunk]));
    const missing = await this.chunks(
      fused.filter((f) => !known.has(f.id)).map((f) => f.id),
      visible,
    );
    return fused.flatMap((f) => {
      const chunk = known.get(f.id) ?? missing.get(f.id);
      return chunk ? [{ chunk, score: f.score, ...signals(f.id) }] : [];
    });
  }

  private keywords(
    query: string,
    topK: number,
    minCoverage: number,
    scope: DocumentScope,
  ): KeywordMatch[] {
    // bm25 and hybrid always have an index (see the constructor); vector mode may have none.
    return this.options.bm25?.search(query, topK, minCoverage, scope) ?? [];
  }

  private async embed(query: string): Promise<number[]> {
    const [vector] = await this.options.embedder.embed([query]);
    return vector;
  }

  private async chunks(ids: string[], scope: DocumentScope): Promise<Map<string, Chunk>> {
    if (ids.length === 0) return new Map();
    const chunks = await this.options.store.getChunks(ids, scope);
    return new Map(chunks.map((c) => [c.id, c]));
  }
}

/** Hits at or above the floor; a cosine similarity of 0 or less ("nothing in common") never. */
function above<T extends { score: number }>(hits: T[], floor: number): T[] {
  return hits.filter((hit) => hit.score > 0 && hit.score >= floor);
}
