import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test database (see the CI setup: PostgreSQL 15 with pgvector). */
export const POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A table prefix no other test run uses. */
export function uniqueTablePrefix(label: string): string {
  return `tk_rag_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
}

/** Drops every table a pgvector store with this prefix created. */
export async function dropStoreTables(prefix: string): Promise<void> {
  if (!/^tk_rag_[a-z0-9_]+$/.test(prefix)) throw new Error(`refusing to drop ${prefix}`);
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(
      `DROP TABLE IF EXISTS "${prefix}_chunks", "${prefix}_documents", "${prefix}_meta"`,
    );
  } finally {
    await client.end();
  }
}
