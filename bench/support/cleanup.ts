import { Redis } from 'ioredis';
import pg from 'pg';

/** Deletes every key starting with `prefix` (SCAN, never KEYS). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
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

/** Drops a benchmark table. */
export async function dropTable(url: string, table: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(table)) throw new Error(`refusing to drop ${table}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS "${table}"`);
    // A memory table's bookkeeping of least recently used conversations.
    if (table.endsWith('_memory')) {
      await client.query(`DROP TABLE IF EXISTS "${table}_lru"`);
      await client.query(`DROP SEQUENCE IF EXISTS "${table}_lru_made", "${table}_lru_gone"`);
    }
  } finally {
    await client.end();
  }
}
