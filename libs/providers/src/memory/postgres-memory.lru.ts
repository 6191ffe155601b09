import type { PoolClient } from 'pg';
import type { MemoryTable } from './postgres-memory.schema.js';

/**
 * `memory.max_conversations` on PostgreSQL. Every write records its conversation's last use in
 * `<table>_lru` in the same statement as the messages; a write that creates a conversation also
 * increments the row count kept in `<table>_lru_n` (so nothing ever counts rows), and when that
 * count passes the bound, {@link evictLeastRecentlyUsed} deletes the least recently used
 * conversations in a short transaction of its own.
 *
 * Lock order, so that no two calls can deadlock: writers, `clear` and the purge take their
 * user's advisory lock (exclusive or shared) before that user's rows and the count row last; the
 * eviction takes the count row first and then only what it can get without waiting (victims'
 * rows `SKIP LOCKED`, their advisory locks with `pg_try_advisory_xact_lock`), so a conversation
 * being written, cleared or purged at that moment is skipped, never waited for.
 */

/**
 * CTEs (`used`, `counted`) appended to a write's statement, after its `locked` CTE: records the
 * use of `$1` and counts a new conversation. `counted` yields the new count, or no row when the
 * conversation already existed.
 */
export function recordWriteSql(table: MemoryTable): string {
  return `used AS (
       INSERT INTO ${table.lru} (user_id, used_at) SELECT $1, clock_timestamp() FROM locked
       ON CONFLICT (user_id) DO UPDATE SET used_at = EXCLUDED.used_at
       RETURNING (xmax = 0) AS created
     ),
     counted AS (
       UPDATE ${table.lruCount} SET n = n + 1 WHERE EXISTS (SELECT 1 FROM used WHERE created)
       RETURNING n
     )`;
}

/** A CTE (`touched`) that records a read of `$1` (a conversation the table does not hold stays absent). */
export function recordReadSql(table: MemoryTable): string {
  return `touched AS (UPDATE ${table.lru} SET used_at = clock_timestamp() WHERE user_id = $1)`;
}

/**
 * CTEs (`forgot`, `uncounted`) that delete the `lru` rows of the users a `claimed` CTE names
 * and subtract them from the count; `forgot` yields one row per conversation deleted.
 */
export function forgetSql(table: MemoryTable): string {
  return `forgot AS (
       DELETE FROM ${table.lru} WHERE user_id IN (SELECT user_id FROM claimed) RETURNING user_id
     ),
     uncounted AS (
       UPDATE ${table.lruCount} SET n = n - (SELECT count(*) FROM forgot)
       WHERE EXISTS (SELECT 1 FROM forgot)
     )`;
}

/**
 * Deletes the least recently used conversations (history and `lru` row) beyond `max`, at most
 * `cap` of them, never `keep` (the conversation just written). Runs in its own transaction on
 * `client`, holding the count row so that concurrent evictions do not both delete for the same
 * excess. Resolves to the conversations deleted.
 */
export async function evictLeastRecentlyUsed(
  client: PoolClient,
  table: MemoryTable,
  options: { max: number; cap: number; keep: string },
): Promise<number> {
  await client.query('BEGIN');
  try {
    const counted = await client.query<{ n: string }>(
      `SELECT n::text AS n FROM ${table.lruCount} FOR UPDATE`,
    );
    const excess = Math.min(Number(counted.rows[0]?.n ?? 0) - options.max, options.cap);
    let evicted = 0;
    if (excess > 0) {
      const result = await client.query<{ evicted: string }>(
        `WITH candidates AS (
           SELECT user_id FROM ${table.lru} WHERE user_id <> $1
           ORDER BY used_at LIMIT $2 FOR UPDATE SKIP LOCKED
         ),
         claimed AS (
           SELECT user_id FROM candidates
           WHERE pg_try_advisory_xact_lock(hashtext($3), hashtext(user_id))
         ),
         ${forgetSql(table)},
         gone AS (DELETE FROM ${table.quoted} WHERE user_id IN (SELECT user_id FROM forgot))
         SELECT count(*)::text AS evicted FROM forgot`,
        [options.keep, excess, table.name],
      );
      evicted = Number(result.rows[0]?.evicted ?? 0);
    }
    await client.query('COMMIT');
    return evicted;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
