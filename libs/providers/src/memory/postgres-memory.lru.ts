import type { MemoryTable } from './postgres-memory.schema.js';

/**
 * `memory.max_conversations` on PostgreSQL. Every write records its conversation's last use in
 * `<table>_lru` in the same statement as its messages; a write that creates a conversation takes
 * a number from the `made` sequence, every deletion of a conversation one from `gone`, so the
 * number of conversations is `made - gone`, known without counting rows and without a shared row
 * that every new conversation would queue on. When a new conversation passes the bound,
 * {@link evictSql} deletes the least recently used ones.
 *
 * Sequences do not roll back: a write that fails after creating its conversation counts one too
 * many (one fewer conversation is then kept, never one more) until `resyncSql` runs (with each
 * purge).
 *
 * No deadlock: writers, `clear` and the purge take their user's advisory lock before that user's
 * rows and hold nothing else; an eviction waits only for the table's eviction lock (held only by
 * another eviction, which waits for nothing) and takes the rest without waiting (victims' rows
 * `SKIP LOCKED`, their advisory locks with `pg_try_advisory_xact_lock`), so a conversation being
 * written, cleared or purged at that instant is skipped, never waited for.
 */

/** SQL of how many conversations the table holds (`made - gone`). */
function heldSql(table: MemoryTable): string {
  return `((SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${unquote(table.made)})
          - (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${unquote(table.gone)}))`;
}

/** `'"a"."b"'` → `"a"."b"` (the sequence as a relation to select from). */
function unquote(literal: string): string {
  return literal.slice(1, -1);
}

/**
 * CTEs (`created`, `used`, `counted`) appended to a write's statement, after its `locked` CTE
 * (`$1` user id): records the use of the conversation when the recorded one is older than
 * `touchAfter` (a SQL interval expression; writes in quick succession then write it once); when
 * the conversation is new, `counted` yields how many the table then holds.
 */
export function recordWriteSql(table: MemoryTable, touchAfter: string): string {
  return `created AS (
       INSERT INTO ${table.lru} (user_id, used_at) SELECT $1, clock_timestamp() FROM locked
       ON CONFLICT (user_id) DO NOTHING RETURNING 1
     ),
     used AS (
       UPDATE ${table.lru} SET used_at = clock_timestamp()
       WHERE user_id = $1 AND used_at < clock_timestamp() - ${touchAfter}
         AND EXISTS (SELECT 1 FROM locked)
     ),
     counted AS (
       SELECT nextval(${table.made})
         - (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${unquote(table.gone)}) AS n
       FROM created
     )`;
}

/**
 * A CTE (`touched`) recording a read of `$1` when the recorded use is older than `touchAfter`
 * (a SQL interval expression; the read following a write then writes nothing); a conversation
 * the table lacks stays absent.
 */
export function recordReadSql(table: MemoryTable, touchAfter: string): string {
  return `touched AS (
       UPDATE ${table.lru} SET used_at = clock_timestamp()
       WHERE user_id = $1 AND used_at < clock_timestamp() - ${touchAfter}
     )`;
}

/**
 * CTEs (`forgot`, `uncounted`) deleting the `lru` rows of the users a `claimed` CTE names and
 * counting them in `gone`; `forgot` yields the user id of each conversation deleted. The
 * statement must select from `uncounted` (a plain SELECT CTE runs only when read).
 */
export function forgetSql(table: MemoryTable): string {
  return `forgot AS (
       DELETE FROM ${table.lru} WHERE user_id IN (SELECT user_id FROM claimed) RETURNING user_id
     ),
     uncounted AS (SELECT count(nextval(${table.gone})) AS n FROM forgot)`;
}

/**
 * Takes the table's eviction lock (`$1`: table name) for the rest of the transaction: evictions
 * run one at a time, each after the previous one's deletions (a fresh snapshot in its next
 * statement), so two never delete for the same excess.
 */
export const EVICTION_LOCK_SQL = 'SELECT pg_advisory_xact_lock(hashtext($1), 0)';

/**
 * Deletes the least recently used conversations (history and `lru` row) beyond `$2` (the number
 * to keep, at most max conversations), at most `$3`, never `$1` (the conversation just written); `$4` is the table
 * name (advisory-lock key). Run after {@link EVICTION_LOCK_SQL} in the same transaction. Yields
 * `evicted`.
 */
export function evictSql(table: MemoryTable): string {
  return `WITH excess AS (SELECT greatest(0, least($3::bigint, ${heldSql(table)} - $2)) AS k),
     candidates AS (
       SELECT user_id FROM ${table.lru} WHERE user_id <> $1
       ORDER BY used_at LIMIT coalesce((SELECT k FROM excess), 0) FOR UPDATE SKIP LOCKED
     ),
     claimed AS (
       SELECT user_id FROM candidates WHERE pg_try_advisory_xact_lock(hashtext($4), hashtext(user_id))
     ),
     ${forgetSql(table)},
     erased AS (DELETE FROM ${table.quoted} WHERE user_id IN (SELECT user_id FROM forgot))
     SELECT n::text AS evicted FROM uncounted`;
}

/**
 * Sets `gone` so that `made - gone` is the `lru` table's row count again (after failed writes
 * counted a conversation they did not keep). Under the eviction's lock (`$1`: table name), so no
 * eviction runs meanwhile; a conversation created while it runs may be counted twice (one fewer
 * kept until the next resync).
 */
export function resyncSql(table: MemoryTable): string {
  return `WITH gate AS (SELECT pg_try_advisory_xact_lock(hashtext($1), 0) AS open)
     SELECT setval(${table.gone},
       greatest(1, (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${unquote(table.made)})
         - (SELECT count(*) FROM ${table.lru})),
       (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${unquote(table.made)})
         - (SELECT count(*) FROM ${table.lru}) > 0)
     FROM gate WHERE open`;
}
