/**
 * RAG benchmark: ingest time for 100 documents, query latency of the local vector store at
 * 10k and 100k chunks, and its IVF index against the exact scan and pgvector's HNSW on
 * clustered, embedding-like vectors (see index-case.js). Runs on the compiled package:
 *
 *   npm run build && node bench/rag/rag.bench.js            # all cases
 *   node bench/rag/rag.bench.js --quick                      # 10k chunks only, no index case
 *   node bench/rag/rag.bench.js --index                      # the index case only
 *   node bench/rag/rag.bench.js --index --index-rows=20000   # ... on fewer vectors
 *   node bench/rag/rag.bench.js --index --essential --json=F # what `npm run bench` runs: the
 *                                                            # 100k case and pgvector, no sweeps;
 *                                                            # its figures as JSON in F
 *
 * pgvector: PostgreSQL at RAG_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test);
 * skipped with a note when it cannot be reached.
 *
 * Everything is generated deterministically (seeded PRNG) in a temporary folder that is removed
 * at the end. Figures are printed as a table; nothing is asserted.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchIndex } from './index-case.js';

const dist = process.env.RAG_BENCH_DIST ?? new URL('../../dist/', import.meta.url).pathname;
const rag = await import(join(dist, 'libs/rag/src/index.js'));
const { DocumentIndex, HashingEmbedder, LocalVectorStore } = rag;

const quick = process.argv.includes('--quick');
const indexOnly = process.argv.includes('--index');
const essential = process.argv.includes('--essential');
const jsonFile = process.argv.find((a) => a.startsWith('--json='))?.slice('--json='.length);
const indexRows = Number(
  process.argv.find((a) => a.startsWith('--index-rows='))?.split('=')[1] ?? 100_000,
);
const pgUrl = process.env.RAG_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DIMS = 384;
const QUERIES = 200;

/** Mulberry32: a small seeded PRNG, so every run benchmarks the same data. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(42);
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vi',
  'so',
  'pe',
  'da',
  'gu',
  'ze',
  'bo',
  'fi',
];
const VOCABULARY = Array.from({ length: 3000 }, () => {
  const n = 2 + Math.floor(random() * 3);
  return Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(
    '',
  );
});
/** A Zipf-like word: frequent words are frequent, like in real text. */
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)];
const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(random() * 12) }, word);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(' ')}.`;
};
const paragraph = () => Array.from({ length: 3 + Math.floor(random() * 4) }, sentence).join(' ');
const documentText = (paragraphs) => Array.from({ length: paragraphs }, paragraph).join('\n\n');

function unitVector(rand) {
  const v = new Float32Array(DIMS);
  let norm = 0;
  for (let i = 0; i < DIMS; i += 1) {
    v[i] = rand() - 0.5;
    norm += v[i] * v[i];
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < DIMS; i += 1) v[i] *= scale;
  return v;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

async function latencies(count, fn) {
  const samples = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1) };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(2));
const rows = [];

async function benchIngest(root) {
  const docs = Array.from({ length: 100 }, (_, i) => ({
    name: `doc-${i}.txt`,
    content: Buffer.from(documentText(10 + (i % 10))),
  }));
  const bytes = docs.reduce((n, d) => n + d.content.length, 0);

  const uploads = await DocumentIndex.open({ documentsDir: join(root, 'upload', 'documents') });
  const upload = await time(async () => {
    let chunks = 0;
    for (const d of docs) chunks += (await uploads.ingest(d.content, d.name)).document.chunks;
    return chunks;
  });
  const search = await latencies(QUERIES, (i) => uploads.search(`${sentence()} ${i}`, 5));
  await uploads.close();
  rows.push([
    `ingest 100 documents (${(bytes / 1024).toFixed(0)} KiB, ${upload.result} chunks), uploads`,
    `${fmt(upload.ms)} ms total`,
    `${fmt(upload.ms / 100)} ms/doc`,
  ]);
  rows.push([
    `hybrid search over those ${upload.result} chunks (p50 / p95)`,
    `${fmt(search.p50)} ms`,
    `${fmt(search.p95)} ms`,
  ]);

  const folder = join(root, 'folder', 'documents');
  await mkdir(folder, { recursive: true });
  for (const d of docs) await writeFile(join(folder, d.name), d.content);
  const first = await DocumentIndex.open({ documentsDir: folder });
  const cold = await time(() => first.indexFolder());
  await first.close();
  const second = await DocumentIndex.open({ documentsDir: folder });
  const warm = await time(() => second.indexFolder());
  await second.close();
  rows.push([
    'index a folder of 100 documents at start-up (first run)',
    `${fmt(cold.ms)} ms`,
    `${cold.result.filesPerSecond.toFixed(0)} files/s`,
  ]);
  rows.push([
    'same folder, next start-up (nothing changed)',
    `${fmt(warm.ms)} ms`,
    `${warm.result.filesUnchanged} unchanged`,
  ]);
}

async function benchStore(root, chunks) {
  const directory = join(root, `store-${chunks}`);
  const store = await LocalVectorStore.open({ directory, dimensions: DIMS, embedderId: 'bench' });
  const rand = prng(chunks);
  const perDocument = 1000;
  const fill = await time(async () => {
    for (let d = 0; d < chunks / perDocument; d += 1) {
      const id = `doc${d}`;
      const docChunks = Array.from({ length: perDocument }, (_, i) => ({
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
        chunks: perDocument,
        createdAt: new Date().toISOString(),
      };
      await store.add(
        record,
        docChunks,
        docChunks.map(() => unitVector(rand)),
      );
    }
  });
  await store.close();
  const reopen = await time(() =>
    LocalVectorStore.open({ directory, dimensions: DIMS, embedderId: 'bench' }),
  );
  const reopened = reopen.result;
  const queries = Array.from({ length: QUERIES }, () => unitVector(rand));
  await reopened.search(queries[0], 5); // warm-up
  const top5 = await latencies(QUERIES, (i) => reopened.search(queries[i], 5));
  const top50 = await latencies(QUERIES / 4, (i) => reopened.search(queries[i], 50));
  await reopened.close();
  const label = `${chunks / 1000}k chunks × ${DIMS} dims`;
  rows.push([`local store ${label}: write (atomic files)`, `${fmt(fill.ms)} ms`, '']);
  rows.push([`local store ${label}: open after restart`, `${fmt(reopen.ms)} ms`, '']);
  rows.push([
    `local store ${label}: query top-5 (p50 / p95)`,
    `${fmt(top5.p50)} ms`,
    `${fmt(top5.p95)} ms`,
  ]);
  rows.push([
    `local store ${label}: query top-50 (p50 / p95)`,
    `${fmt(top50.p50)} ms`,
    `${fmt(top50.p95)} ms`,
  ]);
  await rm(directory, { recursive: true, force: true });
}

const root = await mkdtemp(join(tmpdir(), 'tk-rag-bench-'));
try {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `RAG benchmark — Node ${process.version}, ${cpus().length} CPUs (load ${load}), ` +
      `embedder ${new HashingEmbedder().id}${quick ? ' (quick)' : ''}`,
  );
  if (!indexOnly) {
    await benchIngest(root);
    await benchStore(root, 10_000);
    if (!quick) await benchStore(root, 100_000);
  }
  if (!quick) {
    const common = { root, LocalVectorStore, rows: indexRows, dims: DIMS, centres: 1000 };
    const k = 10;
    const metrics = { rows: indexRows, dims: DIMS, k, queries: QUERIES };
    await benchIndex(rows, {
      ...common,
      noise: 1,
      queryCount: QUERIES,
      k,
      nprobes: essential ? [] : [2, 4, 16, 32],
      sizes: essential ? [] : [5_000, 10_000, 20_000, 40_000].filter((n) => n < indexRows),
      pgUrl,
      metrics,
    });
    if (jsonFile) await writeFile(jsonFile, JSON.stringify(metrics));
    // Harder data: vectors farther from their centres (cosine ≈ 0.55), clusters overlapping.
    if (!essential)
      await benchIndex(rows, {
        ...common,
        noise: 1.5,
        queryCount: QUERIES,
        k,
        nprobes: [16, 32, 64],
      });
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [what, a, b] of rows) console.log(`${what.padEnd(width)}  ${a.padStart(12)}  ${b}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
