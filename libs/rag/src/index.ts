// `toolkit/rag`: the parts of retrieval-augmented generation, from loading a file to answering
// a question from the indexed documents. `DocumentIndex` and `askDocuments` put them together.
// The list is pinned by test/api/entry-points.e2e-spec.ts (snapshot: test/api/entry-points.json).

// Documents and the errors reading or indexing them raises.
export type {
  DocumentType,
  DocumentPage,
  LoadedDocument,
  DocumentRecord,
} from './document.types.js';
export {
  UnsupportedDocumentError,
  UnreadableDocumentError,
  DocumentTooLargeError,
  EmbeddingError,
  VectorStoreUnavailableError,
} from './rag.errors.js';
export type { UnreadableReason } from './rag.errors.js';

// Loading: format detection from content and name, then text extraction.
export { loadDocument, loadAs } from './loaders/load-document.js';
export { DEFAULT_MAX_INFLATED_BYTES } from './loaders/load-options.js';
export type { LoadOptions } from './loaders/load-options.js';
export { detectDocumentType, DOCUMENT_EXTENSIONS } from './loaders/detect-document-type.js';
export { checkDocumentHead } from './loaders/check-document-head.js';
export { htmlToText } from './loaders/html.loader.js';

// Chunking: overlapping chunks that end at paragraph, sentence or word boundaries.
export { chunkText, CHARS_PER_TOKEN } from './chunking/chunker.js';
export type { ChunkSource } from './chunking/chunker.js';
export type { Chunk, ChunkingOptions, ChunkUnit } from './chunking/chunk.types.js';

// Parsing off the request path: worker threads, each file within a time and memory budget.
export { ParserPool } from './parsing/parser-pool.js';
export { IngestionBudgetError } from './parsing/ingestion-budget.error.js';
export type { IngestionBudget } from './parsing/ingestion-budget.js';
export type { BudgetKind } from './parsing/ingestion-budget.error.js';
export type { ParseJob, ParseOutcome } from './parsing/parse-job.js';

// Embedding: the contract, the offline hashing embedder and one over an `LLM`.
export { Embedder } from './embedding/embedder.interface.js';
export { HashingEmbedder } from './embedding/hashing.embedder.js';
export type { HashingEmbedderOptions } from './embedding/hashing.embedder.js';
export { LlmEmbedder } from './embedding/llm.embedder.js';
export type { EmbeddingSource, LlmEmbedderOptions } from './embedding/llm.embedder.js';
export { tokenize } from './embedding/tokenize.js';

// Retrieval: keyword (BM25), vector and hybrid search.
export { Bm25Index } from './retrieval/bm25.index.js';
export type { Bm25IndexOptions, KeywordMatch } from './retrieval/bm25.index.js';
export { reciprocalRankFusion } from './retrieval/reciprocal-rank-fusion.js';
export type { FusedMatch } from './retrieval/reciprocal-rank-fusion.js';
export { Retriever } from './retrieval/retriever.js';
export type { RetrievalMode, RetrievedChunk, RetrieverOptions } from './retrieval/retriever.js';
export { DEFAULT_KEYWORD_FLOOR, resolveRelevanceFloor } from './retrieval/relevance-floor.js';
export type { RelevanceFloor } from './retrieval/relevance-floor.js';

// Vector stores: the contract, a local folder store and PostgreSQL with pgvector.
export { VectorStore } from './stores/vector-store.interface.js';
export type {
  VectorStoreKind,
  VectorMatch,
  VectorStoreOptions,
  EmbedderChangePolicy,
} from './stores/vector-store.interface.js';
export { ALL_DOCUMENTS } from './stores/document-scope.js';
export type { DocumentScope } from './stores/document-scope.js';
export { LocalVectorStore } from './stores/local-vector.store.js';
export type { LocalVectorStoreOptions } from './stores/local-vector.store.js';
export type { LocalIndexMode, LocalIndexStatus, LocalIvfOptions } from './stores/local-index.js';
export { PgVectorStore } from './stores/pgvector.store.js';
export type { PgVectorStoreOptions } from './stores/pgvector.store.js';

// Indexing: uploads and a documents folder, kept in step with the stores.
export { DocumentIndex } from './indexing/document-index.js';
export type { DocumentIndexOptions } from './indexing/document-index.options.js';
export { DocumentStorage } from './indexing/document-storage.js';
export type { IngestResult } from './indexing/ingest-result.js';
export type { SearchResult } from './indexing/search-result.js';
export type { FolderIndexReport } from './indexing/folder-indexer.js';
export type { IndexingProgress, IndexLogger } from './indexing/indexing-progress.js';

// Asking: a grounded prompt from search results, and the whole question-to-answer call.
export { buildAskPrompt, ASK_SYSTEM_PROMPT } from './ask/ask-prompt.js';
export type { AskPrompt, AskPromptOptions, AskSource } from './ask/ask-prompt.js';
export { askDocuments, NOT_COVERED_ANSWER } from './ask/ask-documents.js';
export type {
  AskOptions,
  AskResult,
  CompletionModel,
  DocumentSearch,
} from './ask/ask-documents.js';

// Ingestion on a queue: folder files as BullMQ jobs on Redis, processed by workers anywhere.
export { IngestionQueue } from './queue/ingestion-queue.js';
export type {
  EnqueueFolderOptions,
  EnqueueReport,
  IngestionQueueOptions,
  TrackedEnqueueReport,
} from './queue/ingestion-queue.js';
export { IngestionWorker } from './queue/ingestion-worker.js';
export type { IngestionTarget, IngestionWorkerOptions } from './queue/ingestion-worker.js';
export type { RedisConnectionEvents } from './queue/redis-connection-watch.js';
export { FolderGoneError } from './indexing/folder-gone.error.js';
export { INGESTION_QUEUE } from './queue/ingestion-job.js';
export type {
  IngestionCounts,
  IngestionFailure,
  IngestionJob,
  IngestionJobState,
  IngestionOutcome,
} from './queue/ingestion-job.js';

// Nest integration: the project's index from the configuration's `rag:` section, injectable.
export { RagModule } from './module/rag.module.js';
export type { RagModuleOptions } from './module/rag.module-definition.js';

// A project's index as the `rag:` section describes it (RagModule, `toolkit ingest`, `toolkit worker`).
export { openProjectIndex } from './project/open-project-index.js';
export type { OpenProjectIndexOptions, ProjectIndex } from './project/open-project-index.js';
export { projectEmbedder, embeddingModelFor } from './project/project-embedder.js';
export { EMBEDDING_DIMENSIONS, embeddingDimensions } from '../../providers/src/internal.js';
export type { RagSettings, RagStoreKind, RagIndexKind } from '../../framework/src/internal.js';
