import type { Pool } from 'pg';
import { loadPg } from './backend-clients.js';

/** Options of {@link createPostgresPool}. */
export interface PostgresPoolOptions {
  url: string;
  /** Most connections. @default 10 */
  size?: number;
  /** Longest wait for a connection, in ms. */
  connectTimeoutMs: number;
  /** Longest a statement may run, in ms. @default no limit */
  queryTimeoutMs?: number;
}

/**
 * A `pg` pool as toolkit's PostgreSQL backends use it: idle connections closed after 10 s and
 * never keeping the process alive, and the errors of idle connections the server dropped
 * swallowed (the pool replaces them on next use; the next query reports an outage).
 */
export function createPostgresPool(options: PostgresPoolOptions): Pool {
  const pool = new (loadPg().Pool)({
    connectionString: options.url,
    max: options.size ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...(options.queryTimeoutMs !== undefined && { query_timeout: options.queryTimeoutMs }),
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  pool.on('error', () => undefined);
  return pool;
}
