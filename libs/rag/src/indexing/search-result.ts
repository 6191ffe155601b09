import type { DocumentType } from '../document.types.js';
import type { RetrievalMode } from '../retrieval/retriever.js';

/** One search hit as the RAG endpoints return it. */
export interface SearchResult {
  /** The chunk's text. */
  text: string;
  /** Relevance; its scale depends on {@link SearchResult.mode} (see `RetrievedChunk.score`). */
  score: number;
  /**
   * What the relevance floor looked at, when computed (see `RelevanceFloor`): the share of the
   * query the chunk contains (0…1) and its cosine similarity to the query. Compare them with
   * the floor (`DocumentIndex.minScore`) to tune it.
   */
  coverage?: number;
  similarity?: number;
  /** The document it comes from. */
  document: { id: string; filename: string; type: DocumentType };
  /** Where in the document: position, character offsets, PDF pages. */
  chunk: { id: string; index: number; start: number; end: number; page?: number; pageEnd?: number };
  /** The retrieval mode that produced the score. */
  mode: RetrievalMode;
}
