import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TraceSpan, TraceSpanOptions } from '../../../providers/src/index.js';
import { ValidationError, traced } from '../../../providers/src/internal.js';
import { resolveChunking } from '../chunking/chunker.js';
import type { Chunk, ChunkingOptions } from '../chunking/chunk.types.js';
import type { DocumentRecord, DocumentType } from '../document.types.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { HashingEmbedder } from '../embedding/hashing.embedder.js';
import { detectDocumentType, displayName } from '../loaders/detect-document-type.js';
import { vectorRows } from '../parsing/parse-job.js';
import { ParserPool } from '../parsing/parser-pool.js';
import { Bm25Index } from '../retrieval/bm25.index.js';
import type { RelevanceFloor } from '../retrieval/relevance-floor.js';
import { Retriever, type RetrievalMode } from '../retrieval/retriever.js';
import { LocalVectorStore } from '../stores/local-vector.store.js';
import {
  ALL_DOCUMENTS,
  assertOwner,
  canChange,
  canSee,
  resolveScope,
  type DocumentScope,
} from '../stores/document-scope.js';
import type { VectorStore } from '../stores/vector-store.interface.js';
import { hashContent } from './content-hash.js';
import type { DocumentIndexOptions } from './document-index.options.js';
import { DocumentStorage } from './document-storage.js';
import { FolderIndexer, type FolderIndexReport } from './folder-indexer.js';
import { IndexManifest } from './index-manifest.js';
import type { IngestResult } from './ingest-result.js';
import type { SearchResult } from './search-result.js';
import { RAG_ATTRIBUTE, RAG_SPAN } from '../rag-spans.js';

/** Start options of `toolkit.rag.ingest` spans (built once). */
const INGEST_SPAN_OPTIONS: TraceSpanOptions = Object.freeze({ kind: 'internal' });

/** Puts what an ingestion did on its span (never the file's name nor its owner); passes `result` on. */
function describeIngest(span: TraceSpan, result: IngestResult): IngestResult {
  if (span.recording) {
    const { document } = result;
    span.setAttributes({
      [RAG_ATTRIBUTE.documentType]: document.type,
      [RAG_ATTRIBUTE.documentBytes]: document.bytes,
      [RAG_ATTRIBUTE.chunks]: document.chunks,
      [RAG_ATTRIBUTE.created]: result.created,
    });
  }
  return result;
}

/**
 * The RAG document index: loads, chunks, embeds and stores files, keeps a BM25 index beside
 * the vector store, and searches them (keywords, vectors or hybrid — see `mode`).
 *
 * - `ingest(bytes, filename)`: an upload. The type is detected (415/422 on bad files), the
 *   content hashed (sha256): identical content is stored and embedded once. The original is
 *   kept in `documentsDir` as `<id>.<ext>`, never under the client's name; that name is
 *   recorded beside it (`.names.json`), so the sources still show it after a rebuild.
 * - `indexFolder()`: at start-up, indexes what is in `documentsDir` incrementally: files with
 *   an unchanged size and mtime are not even read, unchanged content is not re-embedded, files
 *   that disappeared are removed from the index; progress goes to `logger`.
 * - `deleteDocument(id)`: removes the document from the store, the BM25 index and the folder.
 *
 * Owners: `ingest(bytes, name, { owner })` stores a document only `owner` sees (a session, a
 * user); without an owner a document is shared, like every file of the documents folder.
 * `search`, `listDocuments` and `getDocument` take a `DocumentScope`: `{ owner }` sees that
 * owner's documents plus the shared ones; no scope sees the shared ones only (all documents of
 * an app that never sets owners); `{ all: true }` sees everything. `deleteDocument(id, { owner })`
 * deletes only that owner's documents, never a shared one. The store and the BM25 index apply
 * the scope while ranking (see `DocumentScope`). The same content uploaded by two owners is two
 * documents with different ids (see `hashContent`); the owner is recorded beside the stored
 * file (`.owners.json`), so an index rebuilt from the folder keeps it.
 *
 * The BM25 index lives in this process. With a store shared by several instances (pgvector),
 * documents another instance adds are found by vector search at once and by keywords after
 * `reload()`.
 *
 * @example
 * const index = await DocumentIndex.open({ documentsDir: 'docs/documents' });
 * await index.indexFolder();
 * const { document } = await index.ingest(bytes, 'notes.pdf', { owner: session });
 * const results = await index.search('How many vacation days?', 5, { owner: session });
 * await index.close();
 */
export class DocumentIndex {
  readonly mode: RetrievalMode;
  private readonly bm25 = new Bm25Index();
  private readonly retriever: Retriever;
  private readonly documents = new Map<string, DocumentRecord>();
  private readonly chunking: ChunkingOptions;
  private readonly maxTopK: number;
  /** The last change under way per document (see {@link exclusive}). */
  private readonly pending = new Map<string, Promise<void>>();
  /** Where files are loaded and chunked: worker threads, within the ingestion budget. */
  private readonly parser: ParserPool;

  private constructor(
    readonly embedder: Embedder,
    readonly store: VectorStore,
    private readonly ownsStore: boolean,
    readonly storage: DocumentStorage,
    private readonly manifest: IndexManifest,
    private readonly options: DocumentIndexOptions,
  ) {
    this.mode = resolveMode(options.mode ?? 'auto');
    this.retriever = new Retriever({
      mode: this.mode,
      store,
      embedder,
      bm25: this.bm25,
      minScore: options.minScore,
    });
    this.chunking = options.chunking ?? {};
    resolveChunking(this.chunking);
    this.maxTopK = options.maxTopK ?? 50;
    this.parser = new ParserPool(options.ingestion);
  }

  /** The relevance floor searches apply, defaults filled in (see `RelevanceFloor`). */
  get minScore(): Required<RelevanceFloor> {
    return this.retriever.minScore;
  }

  /** Opens the store (unless given), loads the manifest and rebuilds the BM25 index. */
  static async open(options: DocumentIndexOptions): Promise<DocumentIndex> {
    const embedder = options.embedder ?? new HashingEmbedder();
    const indexDir = options.indexDir ?? join(options.documentsDir, '.index');
    const store =
      options.store ??
      (await LocalVectorStore.open({
        directory: join(indexDir, 'vectors'),
        dimensions: embedder.dimensions,
        embedderId: embedder.id,
        onEmbedderChange: options.onEmbedderChange ?? 'reset',
        index: options.localIndex,
      }));
    const manifest = await IndexManifest.load(join(indexDir, 'manifest.json'));
    const index = new DocumentIndex(
      embedder,
      store,
      !options.store,
      new DocumentStorage(options.documentsDir),
      manifest,
      options,
    );
    await index.reload();
    return index;
  }

  /** Re-reads the store: document list and BM25 index (e.g. after another instance changed it). */
  async reload(): Promise<void> {
    this.documents.clear();
    for (const record of await this.store.listDocuments(ALL_DOCUMENTS)) {
      this.documents.set(record.id, record);
    }
    this.bm25.clear();
    const batch: Chunk[] = [];
    let owner: string | undefined;
    // Chunks come document by document; a batch holds chunks of one owner.
    for await (const chunk of this.store.chunks(ALL_DOCUMENTS)) {
      const next = this.documents.get(chunk.documentId)?.owner;
      if (batch.length >= 1000 || (batch.length > 0 && next !== owner)) {
        this.bm25.add(batch.splice(0), { owner });
      }
      owner = next;
      batch.push(chunk);
    }
    this.bm25.add(batch, { owner });
  }

  /**
   * Indexes an uploaded file (see the class description) as `owner`'s (shared without one);
   * 415/422 for unusable files, 422 for an owner that is empty, too long or has control
   * characters. While tracing is on it is a `toolkit.rag.ingest` span (see {@link index}), an
   * upload of content already indexed included (`toolkit.rag.created: false`).
   */
  ingest(
    content: Uint8Array,
    filename: string,
    options: { owner?: string } = {},
  ): Promise<IngestResult> {
    return traced(RAG_SPAN.ingest, INGEST_SPAN_OPTIONS, async (span) =>
      describeIngest(span, await this.ingestNow(content, filename, options)),
    );
  }

  private async ingestNow(
    content: Uint8Array,
    filename: string,
    options: { owner?: string },
  ): Promise<IngestResult> {
    const { owner } = options;
    assertOwner(owner);
    const type = detectDocumentType(content, filename);
    const { id } = hashContent(content, owner);
    const existing = await this.stored(id);
    if (existing) return { document: existing, created: false };
    const storedName = DocumentStorage.fileName(id, type);
    const given = displayName(filename);
    // A stored file ingested again under its stored name (e.g. a queue over the documents
    // folder) keeps the name its uploader gave it.
    const shown = given === storedName ? await this.storage.displayName(storedName) : given;
    return this.indexNow(content, type, shown, owner, async () => {
      const path = await this.storage.save(id, type, content, shown, owner);
      const info = await stat(this.storage.resolve(path));
      return { path, size: info.size, mtimeMs: info.mtimeMs };
    });
  }

  /** Indexes the documents folder incrementally (see the class description). */
  indexFolder(): Promise<FolderIndexReport> {
    return new FolderIndexer(this.storage, this.manifest, this.options.logger, {
      has: (id) => this.documents.has(id),
      index: (content, type, name, file, owner) =>
        this.index(content, type, name, owner, () => Promise.resolve(file)),
      forget: (id) => this.exclusive(id, () => this.forget(id, false, ALL_DOCUMENTS)),
    }).run();
  }

  /**
   * Searches the chunks visible in `scope` (its owner's and the shared ones; shared only
   * without a scope); `topK` from 1 to `maxTopK` (422 otherwise).
   */
  async search(query: string, topK = 5, scope?: DocumentScope): Promise<SearchResult[]> {
    const visible = resolveScope(scope);
    if (typeof query !== 'string' || query.trim().length === 0) {
      throw new ValidationError([{ param: 'query', problem: 'must be a non-empty string' }]);
    }
    if (!Number.isInteger(topK) || topK < 1 || topK > this.maxTopK) {
      throw new ValidationError([
        {
          param: 'top_k',
          problem: `must be an integer from 1 to ${this.maxTopK} (got ${String(topK)})`,
        },
      ]);
    }
    const hits = await this.retriever.retrieve(query, topK, visible);
    const results: SearchResult[] = [];
    for (const { chunk, score, coverage, similarity } of hits) {
      const document = await this.record(chunk.documentId);
      // The retriever filtered already; a record changed meanwhile is checked again here.
      if (!document || !canSee(visible, document.owner)) continue;
      const position = { id: chunk.id, index: chunk.index, start: chunk.start, end: chunk.end };
      results.push({
        text: chunk.text,
        score,
        ...(coverage !== undefined && { coverage }),
        ...(similarity !== undefined && { similarity }),
        document: { id: document.id, filename: document.filename, type: document.type },
        chunk: {
          ...position,
          ...(chunk.page !== undefined && { page: chunk.page }),
          ...(chunk.pageEnd !== undefined && { pageEnd: chunk.pageEnd }),
        },
        mode: this.mode,
      });
    }
    return results;
  }

  /**
   * Removes a document everywhere (store, BM25, its files) when `scope` may change it: an
   * owner's own documents with `{ owner }`, shared ones without a scope, any with
   * `{ all: true }`; false when unknown or not the scope's to delete (another owner's copy of
   * the same content has another id and stays).
   */
  deleteDocument(documentId: string, scope?: DocumentScope): Promise<boolean> {
    const allowed = resolveScope(scope);
    return this.exclusive(documentId, () => this.forget(documentId, true, allowed));
  }

  /** Every indexed document visible in `scope` (shared ones only without it), oldest first. */
  listDocuments(scope?: DocumentScope): Promise<DocumentRecord[]> {
    return this.store.listDocuments(resolveScope(scope));
  }

  /** One document's record, if visible in `scope` (shared ones only without it). */
  async getDocument(
    documentId: string,
    scope?: DocumentScope,
  ): Promise<DocumentRecord | undefined> {
    const visible = resolveScope(scope);
    const record = await this.record(documentId);
    return record && canSee(visible, record.owner) ? record : undefined;
  }

  /**
   * Stops the parser workers (files being parsed are refused with a 503, nothing of them
   * stored), waits for pending changes, then closes the store if this index opened it.
   */
  async close(): Promise<void> {
    await this.parser.close();
    await Promise.all(this.pending.values());
    if (this.ownsStore) await this.store.close();
  }

  /**
   * One document indexed, as a `toolkit.rag.ingest` span while tracing is on (type, bytes,
   * chunks, whether it was new): its embedding calls and store writes are the span's children.
   */
  private index(
    content: Uint8Array,
    type: DocumentType,
    filename: string,
    owner: string | undefined,
    persist: () => Promise<{ path: string; size: number; mtimeMs: number }>,
  ): Promise<IngestResult> {
    return traced(RAG_SPAN.ingest, INGEST_SPAN_OPTIONS, async (span) =>
      describeIngest(span, await this.indexNow(content, type, filename, owner, persist)),
    );
  }

  /** Loads, chunks and embeds outside the lock; stores under it (the same content only once). */
  private async indexNow(
    content: Uint8Array,
    type: DocumentType,
    filename: string,
    owner: string | undefined,
    persist: () => Promise<{ path: string; size: number; mtimeMs: number }>,
  ): Promise<IngestResult> {
    const { id, sha256 } = hashContent(content, owner);
    // The offline embedder is CPU work too: the worker does it. A model's are network calls.
    const hashing = this.embedder instanceof HashingEmbedder ? this.embedder.options : undefined;
    const parsed = await this.parser.parse({
      type,
      content,
      name: filename,
      documentId: id,
      chunking: this.chunking,
      ...(this.options.load && { load: this.options.load }),
      ...(hashing && { hashing }),
    });
    const { chunks } = parsed;
    const vectors = parsed.vectors
      ? vectorRows(parsed.vectors, chunks.length)
      : await this.embedder.embed(chunks.map((c) => c.text));
    const result = await this.exclusive(id, async (): Promise<IngestResult> => {
      const file = await persist();
      const entry = { size: file.size, mtimeMs: file.mtimeMs, sha256, documentId: id };
      const existing = await this.stored(id);
      if (existing) {
        this.manifest.set(file.path, entry);
        return { document: existing, created: false };
      }
      const document: DocumentRecord = {
        id,
        sha256,
        filename,
        type,
        bytes: content.byteLength,
        chunks: chunks.length,
        path: file.path,
        createdAt: new Date().toISOString(),
        ...(owner !== undefined && { owner }),
      };
      await this.store.add(document, chunks, vectors);
      await addInSlices(this.bm25, chunks, owner);
      this.documents.set(id, document);
      this.manifest.set(file.path, entry);
      return { document, created: true };
    });
    // Outside the lock: concurrent ingests share one manifest write.
    await this.manifest.save();
    return result;
  }

  private async forget(
    documentId: string,
    deleteFiles: boolean,
    scope: DocumentScope,
  ): Promise<boolean> {
    const record = await this.record(documentId);
    if (record && !canChange(scope, record.owner)) return false;
    const removed = await this.store.deleteDocument(documentId, scope);
    // An owner never touches files of a document this index cannot show to be theirs.
    if (!removed && !record && scope.owner !== undefined) return false;
    this.bm25.removeDocument(documentId);
    this.documents.delete(documentId);
    const files = new Set(this.manifest.filesOf(documentId));
    if (record?.path) files.add(record.path);
    for (const file of files) {
      if (deleteFiles) await this.storage.remove(file);
      this.manifest.delete(file);
    }
    await this.manifest.save();
    return removed;
  }

  /**
   * A document as the store has it now, the one source of truth: a shared store (pgvector)
   * may have lost a document another instance deleted, whose record and BM25 chunks this
   * instance still holds; they are dropped, so a file of that content is indexed again
   * instead of being reported as already there.
   */
  private async stored(documentId: string): Promise<DocumentRecord | undefined> {
    const stored = await this.store.getDocument(documentId, ALL_DOCUMENTS);
    if (stored) this.documents.set(documentId, stored);
    else if (this.documents.delete(documentId)) this.bm25.removeDocument(documentId);
    return stored;
  }

  private async record(documentId: string): Promise<DocumentRecord | undefined> {
    const known = this.documents.get(documentId);
    if (known) return known;
    const stored = await this.store.getDocument(documentId, ALL_DOCUMENTS);
    if (stored) this.documents.set(documentId, stored);
    return stored;
  }

  /**
   * Runs one change per document at a time, in call order (a failure does not block the next);
   * changes to different documents run concurrently (a shared store takes them in parallel).
   */
  private exclusive<T>(documentId: string, change: () => Promise<T>): Promise<T> {
    const before = this.pending.get(documentId) ?? Promise.resolve();
    const run = before.then(change, change);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.pending.set(documentId, settled);
    void settled.then(() => {
      if (this.pending.get(documentId) === settled) this.pending.delete(documentId);
    });
    return run;
  }
}

/** Chunks the keyword index takes between two turns of the event loop (~50 ms per MB of text). */
const BM25_SLICE = 64;

/**
 * Adds a document's chunks to the keyword index a slice at a time, letting other requests run
 * in between: tokenizing a large document at once held the event loop ~0.7 s per MB.
 */
async function addInSlices(
  bm25: Bm25Index,
  chunks: readonly Chunk[],
  owner: string | undefined,
): Promise<void> {
  for (let from = 0; from < chunks.length; from += BM25_SLICE) {
    if (from > 0) await new Promise((resume) => setImmediate(resume));
    bm25.add(chunks.slice(from, from + BM25_SLICE), { owner });
  }
}

/**
 * `auto` is hybrid whatever the embedder: on the labelled set (test/rag/retrieval) BM25 + the
 * offline hashing embedder has BM25's recall@5 and a better MRR (0.890 vs 0.867), and BM25 + a
 * model's vectors beats either alone.
 */
function resolveMode(mode: RetrievalMode | 'auto'): RetrievalMode {
  return mode === 'auto' ? 'hybrid' : mode;
}
