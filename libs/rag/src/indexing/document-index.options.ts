import type { ChunkingOptions } from '../chunking/chunk.types.js';
import type { LoadOptions } from '../loaders/load-options.js';
import type { IngestionBudget } from '../parsing/ingestion-budget.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import type { RelevanceFloor } from '../retrieval/relevance-floor.js';
import type { RetrievalMode } from '../retrieval/retriever.js';
import type { LocalIndexMode } from '../stores/local-index.js';
import type { EmbedderChangePolicy, VectorStore } from '../stores/vector-store.interface.js';
import type { IndexLogger } from './indexing-progress.js';

/**
 * Options of `DocumentIndex.open`.
 *
 * @example
 * {
 *   documentsDir: 'docs/documents',
 *   embedder: new LlmEmbedder(llm, { id: 'openai/text-embedding-3-small', dimensions: 1536 }),
 *   chunking: { size: 800, overlap: 120 },
 *   logger: (message) => logger.log(message),
 * }
 */
export interface DocumentIndexOptions {
  /** Folder of the original files: uploads are saved here and it is indexed at start-up. */
  documentsDir: string;
  /** Folder for the local vector store and the manifest. @default `<documentsDir>/.index` */
  indexDir?: string;
  /** How chunks are embedded. @default new HashingEmbedder() (offline) */
  embedder?: Embedder;
  /**
   * Where vectors live. The index closes only a store it opened itself.
   * @default a LocalVectorStore in `<indexDir>/vectors`
   */
  store?: VectorStore;
  /**
   * Retrieval method: `bm25` (keywords), `vector` (embeddings) or `hybrid` (both, fused by
   * reciprocal rank); `auto` is `hybrid`, which measured best with the offline embedder and
   * with model embeddings alike. Whether it is semantic depends on the embedder
   * (`embedder.id`). @default 'auto'
   */
  mode?: RetrievalMode | 'auto';
  /**
   * The relevance floor: chunks less related to the query are not returned, so a question the
   * documents do not cover finds nothing. @default { keyword: 0.15, vector: embedder.minSimilarity ?? 0 }
   */
  minScore?: RelevanceFloor;
  /** How documents are cut. @default { size: 1000, overlap: 150, unit: 'characters' } */
  chunking?: ChunkingOptions;
  /** Receives progress while a folder is indexed. @default none */
  logger?: IndexLogger;
  /** Largest `top_k` a search accepts. @default 50 */
  maxTopK?: number;
  /**
   * For the default local store: what to do when it was built with another embedder. The
   * originals are in `documentsDir`, so `reset` simply re-indexes them. @default 'reset'
   */
  onEmbedderChange?: EmbedderChangePolicy;
  /** For the default local store: exact search, an IVF index, or `auto` (by size). @default 'auto' */
  localIndex?: LocalIndexMode;
  /**
   * What one file may cost to parse: files are loaded and chunked in worker threads, each within
   * a time and memory budget (422 past it), so a hostile or huge file never stalls the app.
   * @default { timeoutMs: 60000, memoryMb: 512, workers: 1, maxQueued: 64 }
   */
  ingestion?: IngestionBudget;
  /**
   * Bounds of the loaders: how far a DOCX or PDF may inflate (413 past it, before inflating).
   * @default { maxInflatedBytes: 64 MiB }
   */
  load?: LoadOptions;
}
