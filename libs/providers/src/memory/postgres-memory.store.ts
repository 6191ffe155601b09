import type { Pool } from 'pg';
import { loadPg } from '../support/backend-clients.js';
import type { QueryResultRow } from 'pg';
import type { ToolkitError } from '../errors/toolkit.error.js';
import { assertMaxHistory } from './max-history.js';
import type { MemoryMessage, MemoryRole } from './memory-message.js';
import {
  assertPositiveInteger,
  assertValidStoredMessage,
  assertValidUserId,
} from './memory-message.validation.js';
import type { MemoryStore } from './memory-store.interface.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';
import { postgresFailure } from './postgres-memory.errors.js';
import { memoryTable, tableNameFor } from './postgres-memory.schema.js';
import type { MemoryTable } from './postgres-memory.schema.js';

/** Options of {@link PostgresMemoryStore}. */
export interface PostgresMemoryStoreOptions {
  /** PostgreSQL URL. @default "postgres://127.0.0.1:5432/postgres" */
  url?: string;
  /** The table is `<keyPrefix>_memory` unless `table` is given. @default "toolkit" */
  keyPrefix?: string;
  /** Explicit table name, optionally `schema.table`. @default `<keyPrefix>_memory` */
  table?: string;
  /** Newest messages kept per user. @default 100 */
  maxHistory?: number;
  /** Connections in the pool. @default 10 */
  poolSize?: number;
  /** Longest wait for a connection (new, or free in the pool). @default 2000 */
  connectTimeoutMs?: number;
  /** Longest wait for one query's answer. @default 5000 */
  queryTimeoutMs?: number;
}

/** Inserts between two trims of a user's history (see `append`). */
const TRIM_EVERY = 16;

interface Row {
  role: MemoryRole;
  content: string;
  created_at: Date;
}

/**
 * Histories in PostgreSQL (`memory.backend: postgres`): one row per message in one table, indexed
 * on (user, insertion order). The table and index are created on first use (under an advisory
 * lock, so processes racing to create them all succeed). Each append inserts and trims to
 * `maxHistory` in a single statement; all SQL is parameterised.
 *
 * @example
 * const store = new PostgresMemoryStore({ url: 'postgres://127.0.0.1:5432/app', maxHistory: 200 });
 */
export class PostgresMemoryStore implements MemoryStore {
  readonly backend = 'postgres' as const;
  readonly maxHistory: number;
  /** The table this store uses (created on first use). */
  readonly table: MemoryTable;
  private readonly url: string;
  private readonly pool: Pool;
  private schemaReady: Promise<void> | undefined;
  private closed = false;

  constructor(options: PostgresMemoryStoreOptions = {}) {
    this.maxHistory = assertMaxHistory(options.maxHistory ?? 100);
    this.table = memoryTable(options.table ?? tableNameFor(options.keyPrefix ?? 'toolkit'));
    this.url = options.url ?? 'postgres://127.0.0.1:5432/postgres';
    this.pool = new (loadPg().Pool)({
      connectionString: this.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
      query_timeout: options.queryTimeoutMs ?? 5000,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // An idle connection dropped by the server emits here; the pool replaces it on next use.
    this.pool.on('error', () => undefined);
  }

  async append(userId: string, message: MemoryMessage): Promise<void> {
    assertValidUserId(userId);
    assertValidStoredMessage(message);
    const t = this.table.quoted;
    // Rows past max_history are never read (`list` takes the newest N), so they are deleted in
    // batches: on every TRIM_EVERY-th insert (by id) the same statement trims this user's
    // history. The other inserts skip the DELETE entirely (a one-time filter), which keeps an
    // append as cheap as a plain INSERT. The DELETE cannot see the row being inserted, so the
    // cut-off counts it in explicitly.
    await this.query(
      `WITH inserted AS (
         INSERT INTO ${t} (user_id, role, content, created_at) VALUES ($1, $2, $3, $4) RETURNING id
       )
       DELETE FROM ${t} WHERE (SELECT id FROM inserted) % $6 = 0 AND user_id = $1 AND id < (
         SELECT id FROM (SELECT id FROM ${t} WHERE user_id = $1 UNION ALL SELECT id FROM inserted) ids
         ORDER BY id DESC OFFSET $5 LIMIT 1
       )`,
      [userId, message.role, message.content, message.timestamp, this.maxHistory - 1, TRIM_EVERY],
    );
  }

  async list(userId: string, limit: number = this.maxHistory): Promise<MemoryMessage[]> {
    assertValidUserId(userId);
    assertPositiveInteger('limit', limit, true);
    const t = this.table.quoted;
    const rows = await this.query<Row>(
      `SELECT role, content, created_at FROM (
         SELECT id, role, content, created_at FROM ${t} WHERE user_id = $1 ORDER BY id DESC LIMIT $2
       ) recent ORDER BY id ASC`,
      [userId, Math.min(limit, this.maxHistory)],
    );
    return rows.map((row) => ({
      role: row.role,
      content: row.content,
      timestamp: row.created_at.toISOString(),
    }));
  }

  async clear(userId: string): Promise<void> {
    assertValidUserId(userId);
    await this.query(`DELETE FROM ${this.table.quoted} WHERE user_id = $1`, [userId]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async query<R extends QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    if (this.closed) throw new MemoryUnavailableError('postgres', 'store has been closed');
    this.schemaReady ??= this.createSchema().catch((error: unknown) => {
      this.schemaReady = undefined; // retried by the next call, e.g. once the server is back
      throw error;
    });
    await this.schemaReady;
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.failure(error);
    }
  }

  private async createSchema(): Promise<void> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.failure(error);
    });
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.table.name]);
      for (const statement of this.table.ddl) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.failure(error);
    } finally {
      client.release(broken);
    }
  }

  private failure(error: unknown): ToolkitError {
    return postgresFailure(error, this.url);
  }
}
