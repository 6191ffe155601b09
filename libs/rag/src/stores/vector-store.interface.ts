import type { Chunk } from '../chunking/chunk.types.js';
import type { DocumentRecord } from '../document.types.js';
import type { DocumentScope } from './document-scope.js';

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
 * Documents have owners (`DocumentRecord.owner`; none: shared). The reading and deleting
 * methods take a {@link DocumentScope} and see only what it allows, the store itself filtering:
 * `search` ranks the visible chunks only, so its top k are never another owner's chunks
 * dropped afterwards. Without a scope they see the shared documents only, which is every
 * document of a store that never stored an owner. `count` and `clear` cover everything.
 *
 * @example
 * const store: VectorStore = await LocalVectorStore.open({ directory: '.rag', dimensions: 384, embedderId: embedder.id });
 * await store.add({ ...document, owner: session }, chunks, await embedder.embed(chunks.map((c) => c.text)));
 * const hits = await store.search((await embedder.embed(['question']))[0], 5, { owner: session });
 * await store.deleteDocument(document.id, { owner: session });
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
   * store held for that document id; the record's `owner` (none: shared) goes with every chunk.
   */
  add(document: DocumentRecord, chunks: Chunk[], vectors: ArrayLike<number>[]): Promise<void>;
  /** The `topK` chunks visible in `scope` closest to `vector` by cosine similarity, best first. */
  search(vector: ArrayLike<number>, topK: number, scope?: DocumentScope): Promise<VectorMatch[]>;
  /**
   * Removes a document and all its chunks when `scope` may change it (see `canChange`: an
   * owner's own documents; shared ones without an owner); false when it was not there or not
   * the scope's to delete.
   */
  deleteDocument(documentId: string, scope?: DocumentScope): Promise<boolean>;
  /** One document's record, if stored and visible in `scope`. */
  getDocument(documentId: string, scope?: DocumentScope): Promise<DocumentRecord | undefined>;
  /** Every stored document visible in `scope`, oldest first. */
  listDocuments(scope?: DocumentScope): Promise<DocumentRecord[]>;
  /** The chunks with these ids visible in `scope` (others are skipped), in the order asked. */
  getChunks(chunkIds: readonly string[], scope?: DocumentScope): Promise<Chunk[]>;
  /**
   * Every stored chunk visible in `scope`, document by document (to rebuild a keyword index at
   * start-up: pass `{ all: true }`).
   */
  chunks(scope?: DocumentScope): AsyncIterable<Chunk>;
  /** Number of stored chunks, whatever their owner. */
  count(): Promise<number>;
  /** Removes everything, whatever its owner. */
  clear(): Promise<void>;
  /** Releases files or connections; safe to call twice. */
  close(): Promise<void>;
}

/** Injection token for the application's {@link VectorStore}. */
export const VectorStore = Symbol('VectorStore');
