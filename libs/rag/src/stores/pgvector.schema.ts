import { ConfigError } from '../../../providers/src/internal.js';

/** The tables of one pgvector store, all named after one prefix. */
export interface PgVectorTables {
  prefix: string;
  meta: string;
  documents: string;
  chunks: string;
}

const PREFIX = /^[a-z_][a-z0-9_]{0,44}$/;

/**
 * Table names for a prefix: `<prefix>_meta` (embedder and dimensions), `<prefix>_documents`,
 * `<prefix>_chunks` (with the `vector` column); documents and chunks both carry the `owner`
 * (NULL: shared), so a search filters chunks without a join. The prefix is checked (lower-case letters,
 * digits, underscores; at most 45 characters), so it can be inlined in SQL safely.
 */
export function pgVectorTables(prefix: string): PgVectorTables {
  if (!PREFIX.test(prefix)) {
    throw new ConfigError(
      'rag.pgvector.table',
      `must be lower-case letters, digits and underscores, starting with a letter or underscore, at most 45 characters (got "${prefix}")`,
      'PgVectorStore options',
    );
  }
  return {
    prefix,
    meta: `"${prefix}_meta"`,
    documents: `"${prefix}_documents"`,
    chunks: `"${prefix}_chunks"`,
  };
}

/**
 * Statements creating the tables, or bringing older ones up to date (idempotent, run at every
 * open under the store's advisory lock). Tables from before owners get a NULL `owner` column:
 * their documents are shared, as every document was then. HNSW needs pgvector ≥ 0.5 and ≤ 2000
 * dimensions.
 */
export function pgVectorDdl(t: PgVectorTables, dimensions: number, hnsw: boolean): string[] {
  const ddl = [
    `CREATE TABLE IF NOT EXISTS ${t.meta} (
       id int PRIMARY KEY CHECK (id = 1), embedder_id text NOT NULL, dimensions int NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t.documents} (
       id text PRIMARY KEY, seq bigserial NOT NULL, record jsonb NOT NULL, owner text)`,
    `CREATE TABLE IF NOT EXISTS ${t.chunks} (
       id text PRIMARY KEY,
       document_id text NOT NULL REFERENCES ${t.documents} (id) ON DELETE CASCADE,
       idx int NOT NULL, text text NOT NULL, start_offset int NOT NULL, end_offset int NOT NULL,
       page int, page_end int, embedding vector(${dimensions}) NOT NULL, owner text)`,
    // Tables created before documents had owners: their rows become shared (NULL).
    `ALTER TABLE ${t.documents} ADD COLUMN IF NOT EXISTS owner text`,
    `ALTER TABLE ${t.chunks} ADD COLUMN IF NOT EXISTS owner text`,
    `CREATE INDEX IF NOT EXISTS "${t.prefix}_chunks_document" ON ${t.chunks} (document_id, idx)`,
    `CREATE INDEX IF NOT EXISTS "${t.prefix}_chunks_owner" ON ${t.chunks} (owner)`,
    `CREATE INDEX IF NOT EXISTS "${t.prefix}_documents_owner" ON ${t.documents} (owner, seq)`,
  ];
  if (hnsw) {
    ddl.push(
      `CREATE INDEX IF NOT EXISTS "${t.prefix}_chunks_embedding" ON ${t.chunks} USING hnsw (embedding vector_cosine_ops)`,
    );
  }
  return ddl;
}

/** Drops the store's tables (used by a reset after an embedder change). */
export function pgVectorDrop(t: PgVectorTables): string {
  return `DROP TABLE IF EXISTS ${t.chunks}, ${t.documents}, ${t.meta}`;
}
