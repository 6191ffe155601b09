import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { PgVectorStore } from '../../src/stores/pgvector.store.js';
import { dropStoreTables, POSTGRES_URL, uniqueTablePrefix } from '../support/postgres.js';
import { basis, chunksOf, owned, record } from '../support/records.js';

const DIMS = 8;
const EMBEDDER = 'test-embedder:8';

/** Runs SQL on the test database with a client of its own. */
async function sql<R extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe('PgVectorStore owners', () => {
  const prefixes: string[] = [];
  const stores: PgVectorStore[] = [];
  const open = async (table: string) => {
    const store = await PgVectorStore.open({
      url: POSTGRES_URL,
      table,
      dimensions: DIMS,
      embedderId: EMBEDDER,
    });
    stores.push(store);
    return store;
  };
  const newPrefix = (label: string) => {
    const prefix = uniqueTablePrefix(label);
    prefixes.push(prefix);
    return prefix;
  };

  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const prefix of prefixes) await dropStoreTables(prefix);
  });

  it('migrates tables from before owners: their documents become shared', async () => {
    const p = newPrefix('legacy');
    // The schema as it was before owners existed.
    await sql(
      `CREATE TABLE "${p}_meta" (id int PRIMARY KEY CHECK (id = 1), embedder_id text NOT NULL, dimensions int NOT NULL)`,
    );
    await sql(`INSERT INTO "${p}_meta" VALUES (1, $1, $2)`, [EMBEDDER, DIMS]);
    await sql(
      `CREATE TABLE "${p}_documents" (id text PRIMARY KEY, seq bigserial NOT NULL, record jsonb NOT NULL)`,
    );
    await sql(`CREATE TABLE "${p}_chunks" (id text PRIMARY KEY,
       document_id text NOT NULL REFERENCES "${p}_documents" (id) ON DELETE CASCADE,
       idx int NOT NULL, text text NOT NULL, start_offset int NOT NULL, end_offset int NOT NULL,
       page int, page_end int, embedding vector(${DIMS}) NOT NULL)`);
    await sql(`INSERT INTO "${p}_documents" (id, record) VALUES ('old', $1)`, [
      JSON.stringify(record('old', 1)),
    ]);
    await sql(
      `INSERT INTO "${p}_chunks" VALUES ('old:0', 'old', 0, 'old text', 0, 8, NULL, NULL, $1::vector)`,
      [`[${basis(DIMS, 0).join(',')}]`],
    );

    const store = await open(p);
    expect(await store.listDocuments({ owner: 'anyone' })).toEqual([record('old', 1)]);
    expect((await store.search(basis(DIMS, 0), 1, { owner: 'anyone' }))[0].chunk.id).toBe('old:0');
    expect(await store.deleteDocument('old', { owner: 'anyone' })).toBe(false);
    await store.add(owned('new', 'A'), chunksOf('new', ['mine']), [basis(DIMS, 0)]);
    expect((await store.listDocuments({ owner: 'B' })).map((d) => d.id)).toEqual(['old']);

    const indexes = await sql<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename IN ($1, $2) ORDER BY indexname`,
      [`${p}_chunks`, `${p}_documents`],
    );
    expect(indexes.map((i) => i.indexname)).toEqual(
      expect.arrayContaining([`${p}_chunks_owner`, `${p}_documents_owner`]),
    );
    // Opening again changes nothing (the migration is idempotent).
    expect((await (await open(p)).listDocuments({ all: true })).map((d) => d.id)).toEqual([
      'old',
      'new',
    ]);
  });

  it('finds the visible top k through the HNSW index when other owners hold every nearer row', async () => {
    const p = newPrefix('hnsw');
    // Sequential and bitmap scans off: PostgreSQL then walks the HNSW index even on a small
    // table, as it does by itself on large ones, and its first ef_search (40) candidates are all invisible.
    const pool = new pg.Pool({
      connectionString: POSTGRES_URL,
      options: '-c enable_seqscan=off -c enable_bitmapscan=off',
    });
    const store = await PgVectorStore.open({
      pool,
      table: p,
      dimensions: DIMS,
      embedderId: EMBEDDER,
    });
    try {
      // 1,000 rows of another owner right on the query and 1,000 shared ones further away,
      // all distinct (HNSW graphs of many identical vectors are degenerate).
      const n = 1000;
      const texts = Array.from({ length: n }, (_, i) => `t${i}`);
      const near = texts.map((_, i) => [
        1,
        0.05 * Math.sin(i),
        0.05 * Math.cos(1.3 * i),
        0,
        0,
        0,
        0,
        0,
      ]);
      const far = texts.map((_, i) => [0.2, 0, 1, Math.sin(i), Math.cos(0.7 * i), 0, 0, 0]);
      await store.add(owned('other', 'other', n), chunksOf('other', texts), near);
      await store.add(record('shared', n), chunksOf('shared', texts), far);
      // Without the owner index, the HNSW index is the only way left to read the table.
      await pool.query(`DROP INDEX "${p}_chunks_owner"`);
      await pool.query(`ANALYZE "${p}_chunks"`);
      const plan = await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM "${p}_chunks" WHERE owner IS NULL
         ORDER BY embedding <=> $1::vector LIMIT 3`,
        [`[${basis(DIMS, 0).join(',')}]`],
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(
        `${p}_chunks_embedding`,
      );

      for (const scope of [undefined, { owner: 'me' }]) {
        const hits = await store.search(basis(DIMS, 0), 3, scope);
        expect(hits).toHaveLength(3);
        for (const hit of hits) expect(hit.chunk.documentId).toBe('shared');
      }
      const theirs = await store.search(basis(DIMS, 0), 3, { owner: 'other' });
      expect(theirs.map((h) => h.chunk.documentId)).toEqual(['other', 'other', 'other']);
    } finally {
      await store.close();
      await pool.end();
    }
  });
});
