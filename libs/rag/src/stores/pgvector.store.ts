import type { Pool } from 'pg';
import {
  backendAddress,
  postgresFailure,
  createPostgresPool,
  ToolkitError,
} from '../../../providers/src/internal.js';
import type { PoolClient, QueryResultRow } from 'pg';
import type { Chunk } from '../chunking/chunk.types.js';
import type { DocumentRecord } from '../document.types.js';
import { VectorStoreUnavailableError } from '../rag.errors.js';
import { assertOwner, resolveScope, type DocumentScope } from './document-scope.js';
import { checkDimensions, checkEmbedder } from './embedder-check.js';
import {
  pgVectorDdl,
  pgVectorDrop,
  pgVectorTables,
  type PgVectorTables,
} from './pgvector.schema.js';
import { changeableWhere, visibleWhere } from './pgvector.scope.js';
import { assertTopK, isZero, toUnitVector } from './vector-math.js';
import type { VectorMatch, VectorStore, VectorStoreOptions } from './vector-store.interface.js';

/** Options of {@link PgVectorStore.open}. */
export interface PgVectorStoreOptions extends VectorStoreOptions {
  /** PostgreSQL URL (ignored when `pool` is given). @default "postgres://127.0.0.1:5432/postgres" */
  url?: string;
  /** An existing pool to use; the store then never ends it. */
  pool?: Pool;
  /** Prefix of the store's tables (`<table>_documents`, `<table>_chunks`, `<table>_meta`). @default "toolkit_rag" */
  table?: string;
  /**
   * `hnsw`: an approximate nearest-neighbour index (pgvector ≥ 0.5, up to 2000 dimensions) —
   * fast at millions of rows, may miss a few true neighbours; `none`: exact scans.
   * @default 'hnsw' (or 'none' above 2000 dimensions)
   */
  index?: 'hnsw' | 'none';
  /** Connections in the pool it creates. @default 10 */
  poolSize?: number;
  /** Longest wait for a connection. @default 5000 */
  connectTimeoutMs?: number;
}

interface ChunkRow extends QueryResultRow {
  id: string;
  document_id: string;
  idx: number;
  text: string;
  start_offset: number;
  end_offset: number;
  page: number | null;
  page_end: number | null;
  distance?: number;
}

const INSERT_BATCH = 200;
const PAGE = 1000;

/**
 * A vector store in PostgreSQL with the pgvector extension, for deployments with several app
 * instances: every instance sees the same documents. Three tables per store (see
 * `pgVectorTables`), created on open under an advisory lock; deleting a document cascades to its
 * chunks. Vectors are stored as unit vectors and searched by cosine distance (`<=>`), through an
 * HNSW index by default. Outages surface as `VectorStoreUnavailableError` (503).
 *
 * Every document row and chunk row carries its owner (NULL: shared; tables from before owners
 * are migrated on open, their rows shared), indexed, and every scoped call filters on it in SQL.
 * A scoped search keeps the HNSW index walking until it has `topK` visible rows (pgvector ≥ 0.8
 * iterative scans, in distance order, up to `hnsw.max_scan_tuples`); with an older pgvector it
 * scans the visible rows exactly instead, so the top k are always computed among visible chunks.
 *
 * Needs the extension on the server (`apt-get install postgresql-15-pgvector`) and either an
 * existing `CREATE EXTENSION vector` or the right to create it.
 *
 * @example
 * const store = await PgVectorStore.open({ url: process.env.DATABASE_URL, dimensions: 1536, embedderId: embedder.id });
 */
export class PgVectorStore implements VectorStore {
  readonly kind = 'pgvector' as const;
  private closed = false;
  /** pgvector ≥ 0.8: filtered HNSW searches can go on until they have enough rows. */
  private iterativeScan = false;

  private constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    private readonly url: string,
    private readonly tables: PgVectorTables,
    private readonly hnsw: boolean,
    readonly dimensions: number,
    readonly embedderId: string,
  ) {}

  /** Connects, creates the extension and tables if needed, and checks the embedder. */
  static async open(options: PgVectorStoreOptions): Promise<PgVectorStore> {
    checkDimensions(options.dimensions, 'PgVectorStore options');
    const tables = pgVectorTables(options.table ?? 'toolkit_rag');
    const url = options.url ?? 'postgres://127.0.0.1:5432/postgres';
    const pool =
      options.pool ??
      createPostgresPool({
        url,
        size: options.poolSize,
        connectTimeoutMs: options.connectTimeoutMs ?? 5000,
      });
    const hnsw = (options.index ?? 'hnsw') === 'hnsw' && options.dimensions <= 2000;
    const store = new PgVectorStore(
      pool,
      !options.pool,
      url,
      tables,
      hnsw,
      options.dimensions,
      options.embedderId,
    );
    try {
      await store.createSchema(options);
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async add(
    document: DocumentRecord,
    chunks: Chunk[],
    vectors: ArrayLike<number>[],
  ): Promise<void> {
    assertOwner(document.owner);
    if (vectors.length !== chunks.length) {
      throw new ToolkitError(
        `add() needs one vector per chunk (${chunks.length}, got ${vectors.length})`,
        {
          statusCode: 422,
        },
      );
    }
    const literals = vectors.map((v) => vectorLiteral(toUnitVector(v, this.dimensions)));
    const t = this.tables;
    const owner = document.owner ?? null;
    await this.transaction(async (client) => {
      await client.query(
        `INSERT INTO ${t.documents} (id, record, owner) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record, owner = EXCLUDED.owner`,
        [document.id, JSON.stringify(document), owner],
      );
      await client.query(`DELETE FROM ${t.chunks} WHERE document_id = $1`, [document.id]);
      for (let from = 0; from < chunks.length; from += INSERT_BATCH) {
        const params: unknown[] = [];
        const rows = chunks.slice(from, from + INSERT_BATCH).map((chunk, i) => {
          const n = params.length;
          params.push(chunk.id, chunk.documentId, chunk.index, chunk.text, chunk.start, chunk.end);
          params.push(chunk.page ?? null, chunk.pageEnd ?? null, literals[from + i], owner);
          return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}, $${n + 9}::vector, $${n + 10})`;
        });
        await client.query(
          `INSERT INTO ${t.chunks} (id, document_id, idx, text, start_offset, end_offset, page, page_end, embedding, owner)
           VALUES ${rows.join(', ')}`,
          params,
        );
      }
    });
  }

  async search(
    vector: ArrayLike<number>,
    topK: number,
    scope?: DocumentScope,
  ): Promise<VectorMatch[]> {
    assertTopK(topK);
    const visible = resolveScope(scope);
    const query = toUnitVector(vector, this.dimensions);
    if (isZero(query)) return [];
    const t = this.tables;
    const rows = await this.transaction(async (client) => {
      const params: unknown[] = [vectorLiteral(query), topK];
      let where = visibleWhere(visible, 'owner', params);
      if (this.hnsw) {
        // HNSW returns at most ef_search rows (default 40): widen it for larger top-k.
        await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(40, topK)}`);
        // A filter applied after the index's ef_search candidates could leave fewer than topK
        // visible rows: the index walks on (pgvector ≥ 0.8), or the visible rows are scanned
        // exactly, unless every row is visible anyway (no owned document at all).
        if (where !== 'TRUE' && this.iterativeScan) {
          await client.query('SET LOCAL hnsw.iterative_scan = strict_order');
        } else if (where !== 'TRUE') {
          const owned = await client.query(
            `SELECT 1 FROM ${t.chunks} WHERE owner IS NOT NULL LIMIT 1`,
          );
          if (owned.rowCount === 0) where = 'TRUE';
          else await client.query('SET LOCAL enable_indexscan = off');
        }
      }
      const sql = `SELECT id, document_id, idx, text, start_offset, end_offset, page, page_end,
                          embedding <=> $1::vector AS distance
                   FROM ${t.chunks} WHERE ${where}
                   ORDER BY embedding <=> $1::vector LIMIT $2`;
      return (await client.query<ChunkRow>(sql, where === 'TRUE' ? params.slice(0, 2) : params))
        .rows;
    });
    return rows
      .map((row) => ({ chunk: toChunk(row), score: 1 - Number(row.distance) }))
      .filter((match) => Number.isFinite(match.score));
  }

  async deleteDocument(documentId: string, scope?: DocumentScope): Promise<boolean> {
    const params: unknown[] = [documentId];
    const where = changeableWhere(resolveScope(scope), 'owner', params);
    const rows = await this.query(
      `DELETE FROM ${this.tables.documents} WHERE id = $1 AND ${where} RETURNING id`,
      params,
    );
    return rows.length > 0;
  }

  async getDocument(
    documentId: string,
    scope?: DocumentScope,
  ): Promise<DocumentRecord | undefined> {
    const params: unknown[] = [documentId];
    const where = visibleWhere(resolveScope(scope), 'owner', params);
    const rows = await this.query<{ record: DocumentRecord }>(
      `SELECT record FROM ${this.tables.documents} WHERE id = $1 AND ${where}`,
      params,
    );
    return rows[0]?.record;
  }

  async listDocuments(scope?: DocumentScope): Promise<DocumentRecord[]> {
    const params: unknown[] = [];
    const where = visibleWhere(resolveScope(scope), 'owner', params);
    const rows = await this.query<{ record: DocumentRecord }>(
      `SELECT record FROM ${this.tables.documents} WHERE ${where} ORDER BY seq`,
      params,
    );
    return rows.map((row) => row.record);
  }

  async getChunks(chunkIds: readonly string[], scope?: DocumentScope): Promise<Chunk[]> {
    const visible = resolveScope(scope);
    if (chunkIds.length === 0) return [];
    const params: unknown[] = [chunkIds];
    const where = visibleWhere(visible, 'owner', params);
    const rows = await this.query<ChunkRow>(
      `SELECT id, document_id, idx, text, start_offset, end_offset, page, page_end
       FROM ${this.tables.chunks} WHERE id = ANY($1::text[]) AND ${where}`,
      params,
    );
    const byId = new Map(rows.map((row) => [row.id, toChunk(row)]));
    return chunkIds.flatMap((id) => byId.get(id) ?? []);
  }

  async *chunks(scope?: DocumentScope): AsyncIterable<Chunk> {
    const visible = resolveScope(scope);
    let after: [string, number] = ['', -1];
    for (;;) {
      const params: unknown[] = [after[0] || '0', after[1]];
      const where = visibleWhere(visible, 'd.owner', params);
      const rows = await this.query<ChunkRow & { seq: string }>(
        `SELECT c.id, c.document_id, c.idx, c.text, c.start_offset, c.end_offset, c.page, c.page_end, d.seq
         FROM ${this.tables.chunks} c JOIN ${this.tables.documents} d ON d.id = c.document_id
         WHERE (d.seq, c.idx) > ($1::bigint, $2::int) AND ${where}
         ORDER BY d.seq, c.idx LIMIT ${PAGE}`,
        params,
      );
      for (const row of rows) yield toChunk(row);
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1];
      after = [last.seq, last.idx];
    }
  }

  async count(): Promise<number> {
    const rows = await this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.tables.chunks}`,
    );
    return rows[0].n;
  }

  async clear(): Promise<void> {
    await this.query(`TRUNCATE ${this.tables.chunks}, ${this.tables.documents}`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  private async createSchema(options: VectorStoreOptions): Promise<void> {
    const t = this.tables;
    await this.transaction(async (client) => {
      const installed = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
      if (installed.rowCount === 0) {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('toolkit:pgvector-extension'))`);
        await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      }
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [t.prefix]);
      await client.query(pgVectorDdl(t, this.dimensions, this.hnsw)[0]);
      const meta = await client.query<{ embedder_id: string; dimensions: number }>(
        `SELECT embedder_id, dimensions FROM ${t.meta} WHERE id = 1`,
      );
      const stored = meta.rows[0];
      const where = `PostgreSQL tables ${t.prefix}_* at ${backendAddress(this.url)}`;
      if (
        stored &&
        checkEmbedder(
          { embedderId: stored.embedder_id, dimensions: stored.dimensions },
          options,
          where,
        ) === 'reset'
      ) {
        await client.query(pgVectorDrop(t));
      }
      for (const statement of pgVectorDdl(t, this.dimensions, this.hnsw))
        await client.query(statement);
      await client.query(
        `INSERT INTO ${t.meta} (id, embedder_id, dimensions) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`,
        [this.embedderId, this.dimensions],
      );
      const version = await client.query<{ extversion: string }>(
        `SELECT extversion FROM pg_extension WHERE extname = 'vector'`,
      );
      this.iterativeScan = atLeast(version.rows[0]?.extversion ?? '0', [0, 8]);
    });
  }

  private async query<R extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    this.assertOpen();
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.failure(error);
    }
  }

  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    this.assertOpen();
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.failure(error);
    });
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      throw this.failure(error);
    } finally {
      client.release(broken);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new VectorStoreUnavailableError('pgvector', 'store has been closed');
  }

  private failure(error: unknown): ToolkitError {
    return postgresFailure(error, this.url, {
      label: 'pgvector store',
      unavailable: (detail, cause) => new VectorStoreUnavailableError('pgvector', detail, cause),
      hint: (failed) =>
        failed.code === '0A000' || /extension "vector"/.test(failed.message)
          ? ' (is pgvector installed? apt-get install postgresql-15-pgvector)'
          : '',
    });
  }
}

/** True when a dotted version (`0.8.0`) is at least `[major, minor]`. */
function atLeast(version: string, [major, minor]: [number, number]): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

function vectorLiteral(vector: Float32Array): string {
  return `[${vector.join(',')}]`;
}

function toChunk(row: ChunkRow): Chunk {
  const chunk: Chunk = {
    id: row.id,
    documentId: row.document_id,
    index: row.idx,
    text: row.text,
    start: row.start_offset,
    end: row.end_offset,
  };
  if (row.page !== null) chunk.page = row.page;
  if (row.page_end !== null) chunk.pageEnd = row.page_end;
  return chunk;
}
