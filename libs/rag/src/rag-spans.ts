/** Names of the spans of retrieval and ingestion (children of the request's span). */
export const RAG_SPAN = {
  /** `Retriever.retrieve`: one query ranked (its embedding call and store search are children). */
  retrieve: 'toolkit.rag.retrieve',
  /** One document loaded, chunked, embedded and stored (an upload or a file of the folder). */
  ingest: 'toolkit.rag.ingest',
} as const;

/**
 * Attribute names of RAG spans. The query only when `telemetry.record_content` is on; never a
 * document's name nor its owner (personal data).
 */
export const RAG_ATTRIBUTE = {
  /** `retrieve`: `bm25`, `vector` or `hybrid`. */
  mode: 'toolkit.rag.mode',
  /** `retrieve`: chunks asked for, and chunks returned (after the relevance floor). */
  topK: 'toolkit.rag.top_k',
  results: 'toolkit.rag.results',
  /** `retrieve`: the query text (only with `telemetry.record_content: true`). */
  query: 'toolkit.rag.query',
  /** `ingest`: the document's type (`pdf`, `docx`, …), its size in bytes and its chunks. */
  documentType: 'toolkit.rag.document.type',
  documentBytes: 'toolkit.rag.document.bytes',
  chunks: 'toolkit.rag.chunks',
  /** `ingest`: false when the same content was indexed already (nothing embedded again). */
  created: 'toolkit.rag.created',
} as const;
