import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The shared test Redis and PostgreSQL (start commands in DEVELOPERS.md). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A prefix no other run uses: valid as a Redis key prefix and inside a PostgreSQL table name. */
export function uniquePrefix(label: string): string {
  return `tk_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Deletes every Redis key under `<prefix>` (SCAN, never KEYS). */
export async function deleteRedisKeys(prefix: string, url = REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Runs one SQL statement on the test database with a short-lived client. */
export async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Drops a test table (identifier checked by the caller's prefix rules). A memory store's table
 * (`<prefix>_memory`) goes with its companions: the `_lru` table and its two sequences.
 */
export async function dropTable(table: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(table)) throw new Error(`refusing to drop ${table}`);
  await sql(`DROP TABLE IF EXISTS "${table}"`);
  if (table.endsWith('_memory')) {
    await sql(`DROP TABLE IF EXISTS "${table}_lru"`);
    await sql(`DROP SEQUENCE IF EXISTS "${table}_lru_made", "${table}_lru_gone"`);
  }
}

/** Runs one command on the test Redis with a short-lived client. */
export async function redisCommand(command: string, ...args: string[]): Promise<unknown> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await redis.call(command, ...args);
  } finally {
    redis.disconnect();
  }
}
