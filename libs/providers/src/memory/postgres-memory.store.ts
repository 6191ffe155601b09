import type { Pool, PoolClient } from 'pg';
import { createPostgresPool } from '../backends/postgres-pool.js';
import type { QueryResultRow } from 'pg';
import { ConfigError } from '../errors/config.error.js';
import type { ToolkitError } from '../errors/toolkit.error.js';
import { DEFAULT_MAX_CONVERSATIONS, assertMaxConversations } from './max-conversations.js';
import { assertMaxHistory } from './max-history.js';
import type { MemoryMessage, MemoryRole, ToolStep } from './memory-message.js';
import {
  assertPositiveInteger,
  assertValidMessages,
  assertValidUserId,
} from './memory-message.validation.js';
import type { MemoryStore } from './memory-store.interface.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';
import { postgresMemoryFailure } from './postgres-memory-failure.js';
import {
  EVICTION_LOCK_SQL,
  evictSql,
  forgetSql,
  recordReadSql,
  recordWriteSql,
  resyncSql,
} from './postgres-memory.lru.js';
import { memoryTable, tableNameFor } from './postgres-memory.schema.js';
import type { MemoryTable } from './postgres-memory.schema.js';
import type { PostgresMemoryStoreOptions } from './postgres-memory.options.js';

export type { PostgresMemoryStoreOptions } from './postgres-memory.options.js';

/** Writes between two background purges (and at most one purge a minute otherwise). */
const PURGE_EVERY_WRITES = 1000;
const PURGE_EVERY_MS = 60_000;

/** Inserts between two trims of a user's history (see `append`). */
const TRIM_EVERY = 16;

/** Most conversations one eviction deletes (after `max_conversations` is lowered, the rest follow). */
const EVICT_PER_WRITE = 100;

interface Row {
  role: MemoryRole;
  content: string;
  created_at: Date;
  metadata: Record<string, unknown> | null;
  tools: ToolStep[] | null;
}

/**
 * Histories in PostgreSQL (`memory.backend: postgres`): one row per message in one table, indexed
 * on (user, insertion order), and each conversation's last use in `<table>_lru`. The tables and
 * indexes are created on first use (under an advisory lock, so processes racing to create them
 * all succeed). Each append inserts, trims to `maxHistory` and records the use in a single
 * statement; a new conversation past `maxConversations` then deletes the least recently used
 * ones (see `postgres-memory.lru.ts`). All SQL is parameterised.
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
  private readonly ttlSeconds: number;
  /** Most conversations kept in the table, by every process together. */
  readonly maxConversations: number;
  private readonly purgeBatchSize: number;
  private readonly touchAfterMs: number;
  private writesSincePurge = 0;
  private lastPurgeAt = Date.now();
  private purging: Promise<number> | undefined;
  /** Highest id examined by the last purge: the next one continues after it (wrapping to 0). */
  private purgeCursor = '0';

  constructor(options: PostgresMemoryStoreOptions = {}) {
    this.maxHistory = assertMaxHistory(options.maxHistory ?? 100);
    this.maxConversations = assertMaxConversations(
      options.maxConversations ?? DEFAULT_MAX_CONVERSATIONS,
    );
    this.table = memoryTable(options.table ?? tableNameFor(options.keyPrefix ?? 'toolkit'));
    this.url = options.url ?? 'postgres://127.0.0.1:5432/postgres';
    this.pool = createPostgresPool({
      url: this.url,
      size: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs ?? 2000,
      queryTimeoutMs: options.queryTimeoutMs ?? 5000,
    });
    this.ttlSeconds = options.ttlSeconds ?? 86_400;
    if (!Number.isFinite(this.ttlSeconds) || this.ttlSeconds < 0) {
      throw new ConfigError(
        'memory.ttl',
        `must be a non-negative number of seconds (got ${String(this.ttlSeconds)})`,
        'the memory store options',
      );
    }
    this.touchAfterMs = options.touchAfterMs ?? 1000;
    if (!Number.isFinite(this.touchAfterMs) || this.touchAfterMs < 0) {
      throw new ConfigError(
        'touchAfterMs',
        `must be a non-negative number of milliseconds (got ${String(this.touchAfterMs)})`,
        'the memory store options',
      );
    }
    this.purgeBatchSize = options.purgeBatchSize ?? 1000;
    if (!Number.isSafeInteger(this.purgeBatchSize) || this.purgeBatchSize <= 0) {
      throw new ConfigError(
        'purgeBatchSize',
        `must be a positive integer (got ${String(this.purgeBatchSize)})`,
        'the memory store options',
      );
    }
  }

  /**
   * Deletes conversations whose newest message is older than `ttlSeconds`, one bounded batch:
   * examines at most `purgeBatchSize` of the oldest messages past a moving cursor and deletes the
   * whole history of each of their users that has nothing newer. Resolves to the messages
   * deleted. Then sets the count of conversations (for `maxConversations`) right again after
   * failed writes. Runs by itself in the background (see `ttlSeconds`); call it to purge now.
   */
  async purgeExpired(): Promise<number> {
    if (this.ttlSeconds === 0) return 0;
    const t = this.table.quoted;
    const rows = await this.query<{ cursor: string | null; deleted: string }>(
      `WITH old AS (
         SELECT id, user_id FROM ${t}
         WHERE created_at < now() - make_interval(secs => $1) AND id > $2
         ORDER BY id LIMIT $3
       ),
       expired AS (
         SELECT DISTINCT old.user_id FROM old WHERE NOT EXISTS (
           SELECT 1 FROM ${t} recent
           WHERE recent.user_id = old.user_id AND recent.created_at >= now() - make_interval(secs => $1)
         )
       ),
       -- A conversation being written or cleared right now is left to the next purge.
       claimed AS (
         SELECT user_id FROM expired WHERE pg_try_advisory_xact_lock(hashtext($4), hashtext(user_id))
       ),
       gone AS (DELETE FROM ${t} WHERE user_id IN (SELECT user_id FROM claimed) RETURNING 1),
       ${forgetSql(this.table)}
       SELECT (SELECT max(id) FROM old)::text AS cursor, (SELECT count(*) FROM gone)::text AS deleted,
         (SELECT n FROM uncounted) AS forgotten`,
      [this.ttlSeconds, this.purgeCursor, this.purgeBatchSize, this.table.name],
    );
    this.purgeCursor = rows[0]?.cursor ?? '0';
    await this.query(resyncSql(this.table), [this.table.name]);
    return Number(rows[0]?.deleted ?? 0);
  }

  append(userId: string, message: MemoryMessage): Promise<void> {
    return this.appendMany(userId, [message]);
  }

  async appendMany(userId: string, messages: MemoryMessage[]): Promise<void> {
    assertValidUserId(userId);
    assertValidMessages(messages);
    if (messages.length === 0) return;
    const t = this.table.quoted;
    // One statement: a multi-row INSERT, all rows or none. Ids come from one sequence, so a
    // concurrent write of the same user could take an id in the middle of a batch; a per-(table,
    // user) advisory lock, taken before any row is produced and held until the statement commits,
    // prevents it: exclusive for a batch, shared for a single message (singles cannot split one
    // another, so they still run side by side).
    // Rows past max_history are never read (`list` takes the newest N), so they are deleted in
    // batches: when an inserted id is a multiple of TRIM_EVERY, the same statement trims this
    // user's history. Other inserts skip the DELETE entirely (a one-time filter), which keeps an
    // append as cheap as a plain INSERT. The DELETE cannot see the rows being inserted, so the
    // cut-off counts them in explicitly. The same statement records the conversation's use (and
    // counts it when new) for max_conversations.
    const lock = messages.length > 1 ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared';
    const params: unknown[] = [
      userId,
      this.maxHistory - 1,
      TRIM_EVERY,
      this.table.name,
      this.touchAfterMs,
    ];
    const values = messages.map((message, index) => {
      const at = params.length;
      params.push(
        message.role,
        message.content,
        message.timestamp,
        message.metadata === undefined ? null : JSON.stringify(message.metadata),
        message.tools === undefined ? null : JSON.stringify(message.tools),
      );
      return `(${index}, $${at + 1}::text, $${at + 2}::text, $${at + 3}::timestamptz, $${at + 4}::jsonb, $${at + 5}::jsonb)`;
    });
    const rows = await this.query<{ conversations: string | null }>(
      `WITH locked AS (SELECT ${lock}(hashtext($4), hashtext($1))),
       inserted AS (
         INSERT INTO ${t} (user_id, role, content, created_at, metadata, tools)
         SELECT $1, v.role, v.content, v.created_at, v.metadata, v.tools
         FROM locked, (VALUES ${values.join(', ')}) AS v(ord, role, content, created_at, metadata, tools)
         ORDER BY v.ord
         RETURNING id
       ),
       trimmed AS (
         DELETE FROM ${t} WHERE EXISTS (SELECT 1 FROM inserted WHERE id % $3 = 0)
           AND user_id = $1 AND id < (
             SELECT id FROM (SELECT id FROM ${t} WHERE user_id = $1 UNION ALL SELECT id FROM inserted) ids
             ORDER BY id DESC OFFSET $2 LIMIT 1
           )
       ),
       ${recordWriteSql(this.table, 'make_interval(secs => $5 / 1000.0)')}
       SELECT (SELECT n FROM counted)::text AS conversations`,
      params,
      // One message (add) or two (a turn): the common shapes, prepared once per connection.
      messages.length <= 2 ? `toolkit_memory_append_${messages.length}` : undefined,
    );
    // Only a new conversation can pass the bound; the count it saw says whether it did.
    const conversations = rows[0]?.conversations;
    if (conversations != null && Number(conversations) > this.maxConversations) {
      await this.evict(userId);
    }
    this.purgeInBackground();
  }

  /** Deletes the least recently used conversations beyond `maxConversations` (never `keep`). */
  private async evict(keep: string): Promise<void> {
    await this.transaction(async (client) => {
      await client.query(EVICTION_LOCK_SQL, [this.table.name]);
      // Down to 1% below the bound: the next new conversations then need no eviction, so its
      // lock and commit are paid once per ~1% of the bound rather than by each of them.
      await client.query(evictSql(this.table), [
        keep,
        this.maxConversations - Math.floor(this.maxConversations / 100),
        EVICT_PER_WRITE,
        this.table.name,
      ]);
    });
  }

  /** Runs `work` in one transaction on one pooled client; failures become 503/500 like `query`. */
  private async transaction(work: (client: PoolClient) => Promise<void>): Promise<void> {
    if (this.closed) throw new MemoryUnavailableError('postgres', 'store has been closed');
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.failure(error);
    });
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.failure(error);
    } finally {
      client.release(broken);
    }
  }

  /** Starts a purge when one is due (never two at once); its failure is only retried later. */
  private purgeInBackground(): void {
    if (this.ttlSeconds === 0 || this.purging) return;
    this.writesSincePurge += 1;
    const now = Date.now();
    if (this.writesSincePurge < PURGE_EVERY_WRITES && now - this.lastPurgeAt < PURGE_EVERY_MS) {
      return;
    }
    this.writesSincePurge = 0;
    this.lastPurgeAt = now;
    this.purging = this.purgeExpired()
      .catch(() => 0)
      .finally(() => (this.purging = undefined));
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1', []);
  }

  async list(userId: string, limit: number = this.maxHistory): Promise<MemoryMessage[]> {
    assertValidUserId(userId);
    assertPositiveInteger('limit', limit, true);
    const t = this.table.quoted;
    const rows = await this.query<Row>(
      `WITH ${recordReadSql(this.table, 'make_interval(secs => $2 / 1000.0)')}
       SELECT role, content, created_at, metadata, tools FROM (
         SELECT id, role, content, created_at, metadata, tools FROM ${t} WHERE user_id = $1 ORDER BY id DESC LIMIT $3
       ) recent ORDER BY id ASC`,
      [userId, this.touchAfterMs, Math.min(limit, this.maxHistory)],
      'toolkit_memory_list',
    );
    return rows.map((row) => {
      const message: MemoryMessage = {
        role: row.role,
        content: row.content,
        timestamp: row.created_at.toISOString(),
      };
      if (row.metadata !== null) message.metadata = row.metadata;
      if (row.tools !== null) message.tools = row.tools;
      return message;
    });
  }

  async clear(userId: string): Promise<void> {
    assertValidUserId(userId);
    // The user's advisory lock first, like a write: see postgres-memory.lru.ts for the order.
    await this.query(
      `WITH locked AS (SELECT pg_advisory_xact_lock(hashtext($2), hashtext($1))),
       claimed AS (SELECT $1::text AS user_id FROM locked),
       gone AS (DELETE FROM ${this.table.quoted} WHERE user_id IN (SELECT user_id FROM claimed)),
       ${forgetSql(this.table)}
       SELECT n FROM uncounted`,
      [userId, this.table.name],
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.purging;
    await this.pool.end();
  }

  /**
   * Runs one statement. With a `name`, it is prepared once per pooled connection and then only
   * executed (a write or read statement is long: parsing and planning it each time cost more
   * than running it).
   */
  private async query<R extends QueryResultRow>(
    sql: string,
    params: unknown[],
    name?: string,
  ): Promise<R[]> {
    if (this.closed) throw new MemoryUnavailableError('postgres', 'store has been closed');
    this.schemaReady ??= this.createSchema().catch((error: unknown) => {
      this.schemaReady = undefined; // retried by the next call, e.g. once the server is back
      throw error;
    });
    await this.schemaReady;
    try {
      return (await this.pool.query<R>({ name, text: sql, values: params })).rows;
    } catch (error) {
      throw this.failure(error);
    }
  }

  private createSchema(): Promise<void> {
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [this.table.name]);
      for (const statement of this.table.ddl) await client.query(statement);
    });
  }

  private failure(error: unknown): ToolkitError {
    return postgresMemoryFailure(error, this.url);
  }
}
