/** Where a RAG index keeps its vectors: files on this machine, or PostgreSQL with pgvector. */
export type RagStoreKind = 'local' | 'pgvector';

/** How the local store searches: exact below 20,000 chunks and IVF above (`auto`), or always one. */
export type RagIndexKind = 'auto' | 'exact' | 'ivf';

/**
 * Resolved `rag.*` settings: what `RagModule` (and `toolkit ingest` / `toolkit worker`) open the
 * document index from. Every key has a `TOOLKIT_RAG_<KEY>` environment override.
 */
export interface RagSettings {
  /**
   * `auto` (OpenAI `text-embedding-3-small` when `OPENAI_API_KEY` is set, else the offline
   * hashing embedder), `offline`, or an embedding model name (`ollama/nomic-embed-text`, ...).
   * @default "auto"
   */
  embeddings: string;
  /** Vector dimensions of the embedding model; `null` for the models toolkit knows. @default null */
  embedding_dimensions: number | null;
  /** `local` (files under `index_dir`, one process) or `pgvector` (shared by instances). @default "local" */
  store: RagStoreKind;
  /** The local store's search: `auto`, `exact` or `ivf`. @default "auto" */
  index: RagIndexKind;
  /** PostgreSQL URL of the `pgvector` store; `DATABASE_URL` sets it too. @default "postgres://127.0.0.1:5432/postgres" */
  postgres_url: string;
  /** Prefix of the pgvector store's tables (lower-case letters, digits, `_`). @default "toolkit_rag" */
  postgres_table: string;
  /** Chunk size in characters. @default 1000 */
  chunk_size: number;
  /** Characters shared by neighbouring chunks; less than `chunk_size`. @default 150 */
  chunk_overlap: number;
  /** Largest `top_k` a search may ask for. @default 20 */
  max_top_k: number;
  /**
   * Relevance floor, keywords: the least share of a question (its words weighted by rarity) a
   * chunk must contain to be a source, 0 to 1 (0 turns it off). @default 0.15
   */
  min_keyword_coverage: number;
  /**
   * Relevance floor, vectors: the least cosine similarity for a chunk to be a source, 0 to 1.
   * `null`: the embedder's own floor (offline: 8/√dimensions), none for embedding models.
   * @default null
   */
  min_similarity: number | null;
  /** Where documents are stored, relative to the project folder. @default "docs/documents" */
  documents_dir: string;
  /** Where the local index (vectors, manifest) is kept, relative to the project folder. @default ".toolkit/index" */
  index_dir: string;
  /**
   * BullMQ queue of `toolkit ingest` / `toolkit worker`; empty: `toolkit-ingest-<app.name>`.
   * @default ""
   */
  queue: string;
  /**
   * Longest one file may take to parse (text extraction and chunking, in a worker thread), in
   * seconds; past it the file is refused with a 422 naming this key. @default 60
   */
  ingest_timeout: number;
  /**
   * Largest JavaScript heap one file's parsing may use, in bytes (`512mb`); past it the file is
   * refused with a 422 naming this key. @default 536870912 (512 MiB)
   */
  ingest_memory: number;
  /** Files parsed at the same time, each in a worker thread of its own. @default 1 */
  ingest_workers: number;
  /**
   * How far a DOCX's text part, or a PDF's compressed streams together, may inflate, in bytes
   * (`64mb`); past it the file is refused (413) before it is inflated. @default 67108864 (64 MiB)
   */
  ingest_max_inflated: number;
}
