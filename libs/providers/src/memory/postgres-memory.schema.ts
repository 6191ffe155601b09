import { ConfigError } from '../errors/config.error.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

/** A validated, quoted table name (optionally `schema.table`) and the SQL built on it. */
export interface MemoryTable {
  /** As configured, e.g. `toolkit_memory` or `app.toolkit_memory`; also the advisory-lock key. */
  name: string;
  /** Quoted for SQL, e.g. `"app"."toolkit_memory"`. */
  quoted: string;
  /** The conversations by last use (`<table>_lru`: user id → `used_at`), quoted. */
  lru: string;
  /**
   * Sequences counting conversations created (`<table>_lru_made`) and deleted
   * (`<table>_lru_gone`), as SQL string literals for `nextval`: their difference is the number
   * of conversations, known without counting rows or locking a shared row.
   */
  made: string;
  gone: string;
  /** DDL statements, run once per process on first use. */
  ddl: string[];
}

/** The table name `memory.key_prefix` gives: `toolkit` → `toolkit_memory`. */
export function tableNameFor(keyPrefix: string): string {
  return `${keyPrefix.replace(/[^A-Za-z0-9_]/g, '_')}_memory`;
}

/**
 * Validates a table name (identifiers of letters, digits and `_`, at most 50 characters each, so
 * the derived index name stays within PostgreSQL's 63) and builds its DDL. Identifiers cannot be
 * SQL parameters, hence the strict check.
 * @throws ConfigError for any other name.
 */
export function memoryTable(name: string): MemoryTable {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new ConfigError(
      'memory.key_prefix',
      `must give a PostgreSQL table name of letters, digits and _ (got table ${JSON.stringify(name)})`,
      'the memory store options',
    );
  }
  const quoted = parts.map((part) => `"${part}"`).join('.');
  const table = parts.at(-1) ?? name;
  const schema = parts.length === 2 ? `"${parts[0]}".` : '';
  const lru = `${schema}"${table}_lru"`;
  const made = `'${schema}"${table}_lru_made"'`;
  const gone = `'${schema}"${table}_lru_gone"'`;
  return {
    name,
    quoted,
    lru,
    made,
    gone,
    ddl: [
      `CREATE TABLE IF NOT EXISTS ${quoted} (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        metadata JSONB,
        tools JSONB
      )`,
      `CREATE INDEX IF NOT EXISTS "${table}_user_id_idx" ON ${schema}"${table}" (user_id, id)`,
      // Tables created by earlier versions lack the metadata column.
      `ALTER TABLE ${quoted} ADD COLUMN IF NOT EXISTS metadata JSONB`,
      // ...and the tools column (an assistant answer's tool steps).
      `ALTER TABLE ${quoted} ADD COLUMN IF NOT EXISTS tools JSONB`,
      // Finds the oldest messages when purging expired conversations.
      `CREATE INDEX IF NOT EXISTS "${table}_created_at_idx" ON ${schema}"${table}" (created_at)`,
      // memory.max_conversations: each conversation's last use (read or write), and how many
      // were created and deleted, so a write knows whether it passes the bound without counting.
      `CREATE TABLE IF NOT EXISTS ${lru} (user_id TEXT PRIMARY KEY, used_at TIMESTAMPTZ NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS "${table}_lru_idx" ON ${lru} (used_at)`,
      `CREATE SEQUENCE IF NOT EXISTS ${schema}"${table}_lru_made"`,
      `CREATE SEQUENCE IF NOT EXISTS ${schema}"${table}_lru_gone"`,
      // Once, for a table written by an earlier version (nothing counted yet): its conversations,
      // newest message as last use. Afterwards this does nothing.
      `WITH filled AS (
         INSERT INTO ${lru} (user_id, used_at)
         SELECT user_id, max(created_at) FROM ${quoted}
         WHERE NOT (SELECT is_called FROM ${schema}"${table}_lru_made") GROUP BY user_id
         ON CONFLICT (user_id) DO NOTHING RETURNING 1
       )
       SELECT setval(${made}, count(*)) FROM filled HAVING count(*) > 0`,
    ],
  };
}
