import { ConfigError } from '../../../providers/src/internal.js';
import type { Embedder } from '../embedding/embedder.interface.js';

/**
 * The least relevance a chunk needs to be returned at all: below it, a chunk is noise, and a
 * query no chunk passes returns nothing ("the documents do not cover this"). Each value is on
 * the scale of the signal it bounds, both from 0 to 1; 0 turns that floor off.
 *
 * The floor bounds the underlying scores, never the rank-based hybrid score: a chunk is kept
 * when its keyword match OR its vector match passes its own floor (in `vector` mode the
 * keywords count when the retriever has a BM25 index, as `DocumentIndex`'s always does).
 */
export interface RelevanceFloor {
  /**
   * Keywords: the least share of the query a chunk must contain, each query term weighted by
   * its rarity (see `KeywordMatch.coverage`). The default was tuned on the labelled set of
   * test/rag/retrieval (BM25): 14 of 48 off-topic questions still find a source (20 without a
   * floor), and 1 of 61 labelled questions loses its passage from the top 5 (recall@5 0.967 →
   * 0.951); 0.2 leaves 5 off-topic questions at recall@5 0.934. @default 0.15
   */
  keyword?: number;
  /**
   * Vectors (`vector`, `hybrid`): the least cosine similarity between the query and a chunk.
   * It depends on the embedder, so the default is the embedder's `minSimilarity` (the offline
   * `HashingEmbedder` declares its noise level); embedders that declare none get 0 (every
   * chunk with a positive similarity): set it for model embeddings, between the similarities
   * of related and of unrelated questions (`SearchResult.similarity`).
   * @default embedder.minSimilarity ?? 0
   */
  vector?: number;
}

/** The default keyword floor (see {@link RelevanceFloor.keyword}). */
export const DEFAULT_KEYWORD_FLOOR = 0.15;

/**
 * The floor a retriever applies: the given values, checked, over the defaults.
 * A value that is not a number from 0 to 1 is a `ConfigError` naming it.
 */
export function resolveRelevanceFloor(
  given: RelevanceFloor | undefined,
  embedder: Pick<Embedder, 'minSimilarity'>,
): Required<RelevanceFloor> {
  if (given !== undefined && (typeof given !== 'object' || given === null)) {
    throw new ConfigError(
      'rag.minScore',
      `must be an object such as { keyword: 0.15, vector: 0.3 } (got ${String(given)})`,
      'Retriever options',
    );
  }
  const floor = {
    keyword: given?.keyword ?? DEFAULT_KEYWORD_FLOOR,
    vector: given?.vector ?? embedder.minSimilarity ?? 0,
  };
  for (const key of ['keyword', 'vector'] as const) {
    const value: unknown = floor[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new ConfigError(
        `rag.minScore.${key}`,
        `must be a number from 0 to 1 (got ${String(value)})`,
        'Retriever options',
      );
    }
  }
  return floor;
}
