/**
 * The local store's IVF index against its exact scan (and pgvector's HNSW) on clustered,
 * embedding-like vectors: latency, recall@k against an independent exact scan, build and
 * reopen times, an nprobe sweep, and the collection size where exact search stops paying.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clusteredData, exactTopK, recallAt } from './clustered-data.js';
import { pgvectorHnsw } from './pgvector-hnsw.js';

const PER_DOCUMENT = 1000;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));

async function fill(LocalVectorStore, directory, vectors, dims, options) {
  const store = await LocalVectorStore.open({
    directory,
    dimensions: dims,
    embedderId: 'bench',
    ...options,
  });
  const rows = vectors.length / dims;
  const start = performance.now();
  for (let first = 0, d = 0; first < rows; first += PER_DOCUMENT, d += 1) {
    const count = Math.min(PER_DOCUMENT, rows - first);
    const id = `doc${d}`;
    const chunks = Array.from({ length: count }, (_, i) => ({
      id: `${id}:${i}`,
      documentId: id,
      index: i,
      text: `chunk ${i} of ${id}`,
      start: i * 100,
      end: i * 100 + 99,
    }));
    const record = {
      id,
      sha256: id,
      filename: `${id}.txt`,
      type: 'txt',
      bytes: 0,
      chunks: count,
      createdAt: new Date().toISOString(),
    };
    const own = chunks.map((_, i) => vectors.subarray((first + i) * dims, (first + i + 1) * dims));
    await store.add(record, chunks, own);
  }
  while (store.indexStatus().building) await new Promise((r) => setTimeout(r, 20));
  const ms = performance.now() - start;
  await store.close();
  return ms;
}

/** Row ids found per query (chunk `doc<d>:<i>` is row d·1000 + i) and latencies. */
async function query(store, queries, dims, k) {
  const count = queries.length / dims;
  await store.search(queries.subarray(0, dims), k); // warm-up
  const found = [];
  const samples = [];
  for (let q = 0; q < count; q += 1) {
    const begin = performance.now();
    const hits = await store.search(queries.subarray(q * dims, (q + 1) * dims), k);
    samples.push(performance.now() - begin);
    found.push(
      hits.map(({ chunk }) => Number(chunk.documentId.slice(3)) * PER_DOCUMENT + chunk.index),
    );
  }
  return { found, samples };
}

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

/**
 * Runs the case; pushes `[what, a, b]` rows. `pgUrl` undefined skips pgvector.
 * Options: `{ root, LocalVectorStore, rows, dims, centres, noise, queryCount, k, pgUrl, sizes, nprobes }`.
 */
export async function benchIndex(out, options) {
  const { root, LocalVectorStore, rows, dims, centres, noise, queryCount, k } = options;
  // Figures for `npm run bench` (bench/suites/rag-index.suite.ts), when the caller wants them.
  const metrics = options.metrics ?? {};
  const open = (directory, extra) =>
    LocalVectorStore.open({ directory, dimensions: dims, embedderId: 'bench', ...extra });
  const tag = `${rows / 1000}k × ${dims}, ${centres} centres, noise ${noise}`;
  const data = clusteredData({ rows, queryCount, dims, centres, noise, seed: 2026 });
  const truthRun = await timed(() => exactTopK(data.vectors, data.queries, dims, k));
  const truth = truthRun.result;
  out.push([
    `[${tag}] ground truth: plain exact scan of ${queryCount} queries`,
    `${fmt(truthRun.ms)} ms`,
    '',
  ]);

  const directory = join(root, `ivf-${rows}-${noise}`);
  const fillMs = await fill(LocalVectorStore, directory, data.vectors, dims, { index: 'auto' });
  out.push([
    `[${tag}] local store: write ${rows / PER_DOCUMENT} documents, index auto (background builds included)`,
    `${fmt(fillMs)} ms`,
    '',
  ]);

  const exact = await open(directory, { index: 'exact' });
  const exactRun = await query(exact, data.queries, dims, k);
  await exact.close();
  const exactStats = summary(exactRun.samples);
  metrics.exactP50 = exactStats.p50;
  out.push([
    `[${tag}] local exact scan: top-${k} p50 / p95`,
    `${fmt(exactStats.p50)} ms`,
    `${fmt(exactStats.p95)} ms, recall@${k} ${recallAt(exactRun.found, truth).toFixed(3)}`,
  ]);

  await rm(join(directory, 'ivf.index'), { force: true });
  const cold = await timed(() => open(directory, { index: 'auto' }));
  const build = await timed(() => cold.result.buildIndex());
  const status = cold.result.indexStatus();
  out.push([
    `[${tag}] local IVF build, ${status.lists} lists (open without index file: ${fmt(cold.ms)} ms, then)`,
    `${(build.ms / 1000).toFixed(1)} s`,
    `training + assigning ${status.trainedRows} chunks`,
  ]);
  const ivfRun = await query(cold.result, data.queries, dims, k);
  await cold.result.close();
  const ivfStats = summary(ivfRun.samples);
  Object.assign(metrics, {
    ivfP50: ivfStats.p50,
    ivfRecall: recallAt(ivfRun.found, truth),
    buildSeconds: build.ms / 1000,
    coldOpenMs: cold.ms,
  });
  out.push([
    `[${tag}] local IVF (nprobe ${status.nprobe} of ${status.lists}): top-${k} p50 / p95`,
    `${fmt(ivfStats.p50)} ms`,
    `${fmt(ivfStats.p95)} ms, recall@${k} ${recallAt(ivfRun.found, truth).toFixed(3)}`,
  ]);

  // Three reopens (a single one is at the mercy of other load on the machine).
  const reopens = [];
  let reopened;
  let again;
  for (let i = 0; i < 3; i += 1) {
    const reopen = await timed(() => open(directory, { index: 'auto' }));
    reopens.push(reopen.ms);
    reopened = reopen.result.indexStatus();
    if (i === 0) again = summary((await query(reopen.result, data.queries, dims, k)).samples);
    await reopen.result.close();
  }
  const sortedReopens = [...reopens].sort((a, b) => a - b);
  metrics.reopenMs = reopens;
  out.push([
    `[${tag}] local IVF reopen, median of 3 (index file read, search ${reopened.search}, building ${reopened.building})`,
    `${fmt(sortedReopens[1])} ms`,
    `all: ${reopens.map(fmt).join(' / ')} ms; then top-${k} p50 ${fmt(again.p50)} ms`,
  ]);

  for (const nprobe of options.nprobes ?? []) {
    const store = await open(directory, { index: 'auto', ivf: { nprobe } });
    const run = await query(store, data.queries, dims, k);
    await store.close();
    const stats = summary(run.samples);
    out.push([
      `[${tag}] local IVF nprobe ${nprobe}: top-${k} p50 / p95`,
      `${fmt(stats.p50)} ms`,
      `${fmt(stats.p95)} ms, recall@${k} ${recallAt(run.found, truth).toFixed(3)}`,
    ]);
  }
  await rm(directory, { recursive: true, force: true });

  for (const size of options.sizes ?? []) {
    const dir = join(root, `ivf-size-${size}`);
    const subset = data.vectors.subarray(0, size * dims);
    await fill(LocalVectorStore, dir, subset, dims, { index: 'exact' });
    const exactSmall = await open(dir, { index: 'exact' });
    const e = await query(exactSmall, data.queries, dims, k);
    await exactSmall.close();
    const ivfSmall = await open(dir, { index: 'ivf' });
    const b = await timed(() => ivfSmall.buildIndex());
    const i = await query(ivfSmall, data.queries, dims, k);
    const st = ivfSmall.indexStatus();
    await ivfSmall.close();
    await rm(dir, { recursive: true, force: true });
    const es = summary(e.samples);
    const is = summary(i.samples);
    out.push([
      `[${tag}] ${size / 1000}k chunks: exact p50 / IVF p50 (nprobe ${st.nprobe} of ${st.lists}, build ${(b.ms / 1000).toFixed(1)} s)`,
      `${fmt(es.p50)} ms`,
      `${fmt(is.p50)} ms, IVF recall@${k} ${recallAt(i.found, e.found).toFixed(3)}`,
    ]);
  }

  if (!options.pgUrl) return;
  const pgv = await pgvectorHnsw(options.pgUrl, data.vectors, dims);
  if (!pgv) return;
  metrics.pgvector = { version: pgv.version, buildSeconds: pgv.buildSeconds, search: {} };
  try {
    out.push([
      `[${tag}] pgvector ${pgv.version}: insert ${rows} rows (multi-row INSERT, no index)`,
      `${pgv.insertSeconds.toFixed(1)} s`,
      '',
    ]);
    out.push([
      `[${tag}] pgvector HNSW build (m 16, ef_construction 64)`,
      `${pgv.buildSeconds.toFixed(1)} s`,
      '',
    ]);
    for (const ef of [40, 100]) {
      const run = await pgv.search(ef, data.queries, k);
      const stats = summary(run.samples);
      metrics.pgvector.search[ef] = { p50: stats.p50, recall: recallAt(run.found, truth) };
      out.push([
        `[${tag}] pgvector HNSW ef_search ${ef}: top-${k} p50 / p95`,
        `${fmt(stats.p50)} ms`,
        `${fmt(stats.p95)} ms, recall@${k} ${recallAt(run.found, truth).toFixed(3)}`,
      ]);
    }
  } finally {
    await pgv.close();
  }
}
