/**
 * pgvector's HNSW index on the same vectors as the local store: bulk insert by multi-row
 * INSERTs into a fresh table, then CREATE INDEX ... USING hnsw (vector_cosine_ops) with
 * pgvector's defaults (m 16, ef_construction 64) and maintenance_work_mem 1GB (so the graph is
 * built in memory), timed on its own; queries ORDER BY embedding <=> $1 LIMIT k, the same
 * statement PgVectorStore runs.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const TABLE = 'bench_rag_hnsw';
const BATCH = 500;

const literal = (vector) => `[${Array.from(vector).join(',')}]`;

/**
 * `undefined` when PostgreSQL or the extension is not there (with the reason printed), else
 * `{ version, insertSeconds, buildSeconds, search(efSearch, queries, k) }`.
 */
export async function pgvectorHnsw(url, vectors, dims) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    console.log(`pgvector skipped: ${error.message}`);
    await client.end().catch(() => undefined);
    return undefined;
  }
  const version = (
    await client.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
  ).rows[0].extversion;
  await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await client.query(
    `CREATE TABLE ${TABLE} (id int PRIMARY KEY, embedding vector(${dims}) NOT NULL)`,
  );
  const rows = vectors.length / dims;
  let start = performance.now();
  for (let from = 0; from < rows; from += BATCH) {
    const to = Math.min(rows, from + BATCH);
    const params = [];
    const values = [];
    for (let r = from; r < to; r += 1) {
      params.push(r, literal(vectors.subarray(r * dims, (r + 1) * dims)));
      values.push(`($${params.length - 1}, $${params.length}::vector)`);
    }
    await client.query(`INSERT INTO ${TABLE} (id, embedding) VALUES ${values.join(',')}`, params);
  }
  const insertSeconds = (performance.now() - start) / 1000;
  await client.query("SET maintenance_work_mem = '1GB'");
  start = performance.now();
  await client.query(`CREATE INDEX ON ${TABLE} USING hnsw (embedding vector_cosine_ops)`);
  const buildSeconds = (performance.now() - start) / 1000;
  await client.query(`VACUUM ANALYZE ${TABLE}`);

  return {
    version,
    insertSeconds,
    buildSeconds,
    /** Row ids found per query and latency samples (ms), at an `hnsw.ef_search` setting. */
    async search(efSearch, queries, k) {
      await client.query(`SET hnsw.ef_search = ${Number(efSearch)}`);
      const found = [];
      const samples = [];
      const count = queries.length / dims;
      for (let q = -1; q < count; q += 1) {
        const query = literal(queries.subarray(Math.max(0, q) * dims, (Math.max(0, q) + 1) * dims));
        const begin = performance.now();
        const result = await client.query(
          `SELECT id FROM ${TABLE} ORDER BY embedding <=> $1::vector LIMIT ${Number(k)}`,
          [query],
        );
        if (q < 0) continue; // warm-up
        samples.push(performance.now() - begin);
        found.push(result.rows.map((row) => row.id));
      }
      return { found, samples };
    },
    async close() {
      await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
      await client.end();
    },
  };
}
