/** Options of `PostgresMemoryStore`. */
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
  /**
   * Seconds after its newest message a conversation is purged; `0`: never. Purges run in the
   * background, at most once a minute and after every 1000 writes, deleting at most
   * `purgeBatchSize` expired messages' conversations each. @default 86400
   */
  ttlSeconds?: number;
  /** Oldest messages examined by one purge. @default 1000 */
  purgeBatchSize?: number;
  /**
   * Most conversations kept in the table, shared by every process using it; the least recently
   * used (read or written) is deleted when a new one passes it. @default 10000
   */
  maxConversations?: number;
  /**
   * A read or write records its conversation's use only when the recorded one is older than this
   * many milliseconds, so that the read following a write (every chat turn) and writes in quick
   * succession write it once: least recently used is exact to this much. @default 1000
   */
  touchAfterMs?: number;
}
