import type { Chunk } from '../chunking/chunk.types.js';
import type { DocumentRecord } from '../document.types.js';

/** The vector stores toolkit ships. */
export type VectorStoreKind = 'local' | 'pgvector';

/** One search hit: a chunk and its cosine similarity to the query (-1…1, higher is closer). */
export interface VectorMatch {
  chunk: Chunk;
  score: number;
}

/** What to do when a store was built with another embedder than the one configured now. */
export type EmbedderChangePolicy = 'error' | 'reset';

/** Settings every vector store takes. */
export interface VectorStoreOptions {
  /** Length of the vectors stored; must match the embedder's. */
  dimensions: number;
  /** The embedder's id (`Embedder.id`); vectors of different embedders never mix. */
  embedderId: string;
  /**
   * A store built with another embedder id or dimension: `error` refuses to open it (a
   * `ConfigError` naming both), `reset` empties it so documents are indexed again.
   * @default 'error'
   */
  onEmbedderChange?: EmbedderChangePolicy;
}

/**
 * Where chunks and their vectors live. Implementations: `LocalVectorStore` (files under a
 * folder, exact cosine search in memory) and `PgVectorStore` (PostgreSQL + pgvector, shared by
 * several app instances). Both pass the same contract tests.
 *
 * @example
 * const store: VectorStore = await LocalVectorStore.open({ directory: '.rag', dimensions: 384, embedderId: embedder.id });
 * await store.add(document, chunks, await embedder.embed(chunks.map((c) => c.text)));
 * const hits = await store.search((await embedder.embed(['question']))[0], 5);
 * await store.deleteDocument(document.id);
 * await store.close();
 */
export interface VectorStore {
  /** Which implementation this is. */
  readonly kind: VectorStoreKind;
  /** Vector length. */
  readonly dimensions: number;
  /** The embedder the stored vectors came from. */
  readonly embedderId: string;
  /**
   * Stores a document's chunks with one vector per chunk (same order), replacing whatever the
   * store held for that document id.
   */
  add(document: DocumentRecord, chunks: Chunk[], vectors: ArrayLike<number>[]): Promise<void>;
  /** The `topK` chunks closest to `vector` by cosine similarity, best first. */
  search(vector: ArrayLike<number>, topK: number): Promise<VectorMatch[]>;
  /** Removes a document and all its chunks; false when it was not there. */
  deleteDocument(documentId: string): Promise<boolean>;
  /** One document's record, if stored. */
  getDocument(documentId: string): Promise<DocumentRecord | undefined>;
  /** Every stored document, oldest first. */
  listDocuments(): Promise<DocumentRecord[]>;
  /** The chunks with these ids (unknown ids are skipped), in the order asked. */
  getChunks(chunkIds: readonly string[]): Promise<Chunk[]>;
  /** Every stored chunk, document by document (to rebuild a keyword index at start-up). */
  chunks(): AsyncIterable<Chunk>;
  /** Number of stored chunks. */
  count(): Promise<number>;
  /** Removes everything. */
  clear(): Promise<void>;
  /** Releases files or connections; safe to call twice. */
  close(): Promise<void>;
}

/** Injection token for the application's {@link VectorStore}. */
export const VectorStore = Symbol('VectorStore');
