export type {
  DocumentType,
  DocumentPage,
  LoadedDocument,
  DocumentRecord,
} from './document.types.js';
export {
  UnsupportedDocumentError,
  UnreadableDocumentError,
  EmbeddingError,
  VectorStoreUnavailableError,
} from './rag.errors.js';
export type { UnreadableReason } from './rag.errors.js';

export { loadDocument, loadAs } from './loaders/load-document.js';
export {
  detectDocumentType,
  displayName,
  DOCUMENT_EXTENSIONS,
} from './loaders/detect-document-type.js';
export { htmlToText } from './loaders/html.loader.js';

export { chunkText, resolveChunking, CHARS_PER_TOKEN } from './chunking/chunker.js';
export type { ChunkSource } from './chunking/chunker.js';
export type { Chunk, ChunkingOptions, ChunkUnit } from './chunking/chunk.types.js';

export { Embedder } from './embedding/embedder.interface.js';
export { HashingEmbedder } from './embedding/hashing.embedder.js';
export type { HashingEmbedderOptions } from './embedding/hashing.embedder.js';
export { LlmEmbedder } from './embedding/llm.embedder.js';
export type { EmbeddingSource, LlmEmbedderOptions } from './embedding/llm.embedder.js';
export { tokenize } from './embedding/tokenize.js';

export { Bm25Index } from './retrieval/bm25.index.js';
export type { Bm25IndexOptions, KeywordMatch } from './retrieval/bm25.index.js';
export { reciprocalRankFusion } from './retrieval/reciprocal-rank-fusion.js';
export type { FusedMatch } from './retrieval/reciprocal-rank-fusion.js';
export { Retriever } from './retrieval/retriever.js';
export type { RetrievalMode, RetrievedChunk, RetrieverOptions } from './retrieval/retriever.js';

export { VectorStore } from './stores/vector-store.interface.js';
export type {
  VectorStoreKind,
  VectorMatch,
  VectorStoreOptions,
  EmbedderChangePolicy,
} from './stores/vector-store.interface.js';
export { LocalVectorStore } from './stores/local-vector.store.js';
export type { LocalVectorStoreOptions } from './stores/local-vector.store.js';
export { PgVectorStore } from './stores/pgvector.store.js';
export type { PgVectorStoreOptions } from './stores/pgvector.store.js';

export { DocumentIndex } from './indexing/document-index.js';
export type { DocumentIndexOptions } from './indexing/document-index.options.js';
export { DocumentStorage } from './indexing/document-storage.js';
export type { IngestResult } from './indexing/ingest-result.js';
export type { SearchResult } from './indexing/search-result.js';
export type { FolderIndexReport } from './indexing/folder-indexer.js';
export type { IndexingProgress, IndexLogger } from './indexing/indexing-progress.js';
export { hashContent } from './indexing/content-hash.js';
export type { ContentHash } from './indexing/content-hash.js';

export { buildAskPrompt, ASK_SYSTEM_PROMPT } from './ask/ask-prompt.js';
export type { AskPrompt, AskPromptOptions, AskSource } from './ask/ask-prompt.js';
export { askDocuments } from './ask/ask-documents.js';
export type {
  AskOptions,
  AskResult,
  CompletionModel,
  DocumentSearch,
} from './ask/ask-documents.js';
