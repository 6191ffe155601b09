import type { DocumentType } from '../document.types.js';
import type { RetrievalMode } from '../retrieval/retriever.js';

/** One search hit as the RAG endpoints return it. */
export interface SearchResult {
  /** The chunk's text. */
  text: string;
  /** Relevance; its scale depends on {@link SearchResult.mode} (see `RetrievedChunk.score`). */
  score: number;
  /** The document it comes from. */
  document: { id: string; filename: string; type: DocumentType };
  /** Where in the document: position, character offsets, PDF pages. */
  chunk: { id: string; index: number; start: number; end: number; page?: number; pageEnd?: number };
  /** The retrieval mode that produced the score. */
  mode: RetrievalMode;
}
