import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/environment.js';
import { log } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import type { BenchSettings } from '../support/settings.js';

/** What bench/rag/rag.bench.js --json writes: the 100k × 384 clustered case. */
interface IndexMetrics {
  rows: number;
  dims: number;
  k: number;
  exactP50: number;
  ivfP50: number;
  ivfRecall: number;
  buildSeconds: number;
  coldOpenMs: number;
  reopenMs: number[];
  pgvector?: {
    version: string;
    buildSeconds: number;
    search: Record<string, { p50: number; recall: number }>;
  };
}

/**
 * The local store's IVF index on 100,000 × 384 clustered, embedding-like vectors (bench/rag),
 * against its exact scan and pgvector's HNSW on the same data, in this run: top-10 latency and
 * recall, build and reopen times. One run of the script (it builds 100k vectors twice: ~3 min).
 */
export async function ragIndexSuite(settings: BenchSettings): Promise<Row[]> {
  log('rag index: 100k × 384 vectors, local IVF vs exact vs pgvector HNSW (~3 min)');
  const dir = mkdtempSync(join(tmpdir(), 'tk-bench-rag-'));
  try {
    const file = join(dir, 'metrics.json');
    const child = spawn(
      process.execPath,
      ['bench/rag/rag.bench.js', '--index', '--essential', `--json=${file}`],
      {
        cwd: ROOT,
        env: { ...process.env, RAG_BENCH_PG_URL: settings.postgresUrl },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child.stdout.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`bench/rag/rag.bench.js exited with ${String(code)}`);
    return rowsOf(JSON.parse(readFileSync(file, 'utf8')) as IndexMetrics);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function rowsOf(m: IndexMetrics): Row[] {
  const data = `${m.rows / 1000}k × ${m.dims}`;
  const rows: Row[] = [
    {
      id: 'rag-ivf-latency',
      name: `Local store top-${m.k} p50, ${data}: IVF index vs exact scan`,
      unit: 'ms',
      toolkit: [m.ivfP50],
      baseline: [m.exactP50],
      limit: 10,
    },
    {
      id: 'rag-ivf-recall',
      name: `Local store recall@${m.k}, ${data}: IVF index vs exact scan`,
      unit: 'recall',
      toolkit: [m.ivfRecall],
      baseline: [1],
      target: { kind: 'min', value: 0.95 },
    },
    {
      id: 'rag-ivf-reopen',
      name: `Local store reopen with its index (3 runs), ${data}: vs open without index file`,
      unit: 'ms',
      toolkit: m.reopenMs,
      baseline: [m.coldOpenMs],
      limit: 1000,
    },
  ];
  const hnsw = m.pgvector?.search['40'];
  if (m.pgvector && hnsw) {
    rows.push(
      {
        id: 'rag-ivf-build',
        name: `Index build, ${data}: local IVF vs pgvector ${m.pgvector.version} HNSW`,
        unit: 's',
        toolkit: [m.buildSeconds],
        baseline: [m.pgvector.buildSeconds],
        limit: 60,
      },
      {
        id: 'rag-ivf-vs-hnsw',
        name: `Top-${m.k} p50, ${data}: local IVF (recall ${m.ivfRecall.toFixed(3)}) vs pgvector HNSW ef_search 40 (recall ${hnsw.recall.toFixed(3)})`,
        unit: 'ms',
        toolkit: [m.ivfP50],
        baseline: [hnsw.p50],
      },
    );
  } else {
    rows.push({
      id: 'rag-ivf-build',
      name: `Index build, ${data}: local IVF (pgvector not reachable: no HNSW baseline)`,
      unit: 's',
      toolkit: [m.buildSeconds],
      baseline: [m.buildSeconds],
      limit: 60,
    });
  }
  return rows;
}
