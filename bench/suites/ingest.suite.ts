import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import { runWorker } from '../support/server-process.js';
import type { BenchSettings } from '../support/settings.js';

/** Where scripts/build-corpus.sh puts the corpus unless `TOOLKIT_CORPUS_DIR` says otherwise. */
const DEFAULT_CORPUS_DIR = '/var/cache/toolkit-corpus/v1';
/** `/health` requests sent on the idle server, for the baseline p99. */
const IDLE_PROBES = 500;

/** What bench/workers/ingest-corpus.worker.js reports. */
interface CorpusPass {
  files: number;
  kb: number;
  seconds: number;
  kbPerSec: number;
}

/**
 * Ingestion of real documents (the Debian documentation corpus of scripts/build-corpus.sh):
 * throughput of `DocumentIndex.ingest` over the whole corpus against text extraction alone, and
 * the rag template's `/health` p99 while the heaviest file is uploaded against the same server
 * idle. Both rows are context (the issue sets no target).
 */
export async function ingestSuite(settings: BenchSettings): Promise<Row[]> {
  const dir = process.env.TOOLKIT_CORPUS_DIR || DEFAULT_CORPUS_DIR;
  if (!existsSync(join(dir, 'corpus.json'))) {
    throw new Error(
      `ingest: no real-document corpus in ${dir}; build it with: sudo bash scripts/build-corpus.sh`,
    );
  }
  log(`ingest: the real-document corpus in ${dir}, ingested whole vs text extraction only`);
  const passes = await interleave(['index', 'load'] as const, settings.rounds, (mode) =>
    runWorker<CorpusPass>('workers/ingest-corpus.worker.js', [mode, dir]).then((pass) => ({
      kbPerSec: pass.kbPerSec,
      seconds: pass.seconds,
    })),
  );
  const sizes = readdirSync(join(dir, 'files')).map((name) => ({
    name,
    bytes: statSync(join(dir, 'files', name)).size,
  }));
  const totalKb = sizes.reduce((sum, f) => sum + f.bytes, 0) / 1024;
  const heaviest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  log(
    `ingest: /health while ${heaviest.name} (${(heaviest.bytes / 1024).toFixed(0)} KB) is uploaded`,
  );
  const content = readFileSync(join(dir, 'files', heaviest.name));
  const during: number[] = [];
  const idle: number[] = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    // A fresh server each round: the same content uploaded twice would not be parsed again.
    const probed = await withServers(
      { rag: { script: 'servers/rag-upload.server.js' } },
      ({ rag }) => probeUpload(rag.url, heaviest.name, content),
    );
    log(
      `  round ${round + 1}/${settings.rounds}: upload ${probed.uploadMs.toFixed(0)} ms, ` +
        `/health p99 ${probed.p99.toFixed(1)} ms (${probed.probes} probes), idle ${probed.idleP99.toFixed(1)} ms`,
    );
    during.push(probed.p99);
    idle.push(probed.idleP99);
  }
  return [
    {
      id: 'ingest-throughput',
      name:
        `Real documents (${sizes.length} files, ${(totalKb / 1024).toFixed(1)} MB: Debian HTML, PDF, ` +
        'DOCX, text, Markdown): `DocumentIndex.ingest` one at a time vs `loadDocument` alone',
      unit: 'KB/s',
      toolkit: passes.index.map((p) => p.kbPerSec),
      baseline: passes.load.map((p) => p.kbPerSec),
    },
    {
      id: 'ingest-health-p99',
      name:
        `\`/health\` p99 while ${heaviest.name} (${(heaviest.bytes / 1024).toFixed(0)} KB) is ` +
        'uploaded to the rag template vs the same server idle',
      unit: 'ms',
      toolkit: during,
      baseline: idle,
    },
  ];
}

interface Probed {
  uploadMs: number;
  probes: number;
  p99: number;
  idleP99: number;
}

/** `/health` asked one request after another: idle first, then until the upload is answered. */
async function probeUpload(base: string, name: string, content: Buffer): Promise<Probed> {
  const idle: number[] = [];
  for (let i = 0; i < IDLE_PROBES; i += 1) idle.push(await health(base));
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const started = performance.now();
  let done = false;
  const upload = fetch(`${base}/upload`, { method: 'POST', body: form })
    .then(async (res) => {
      const body = await res.text();
      if (!res.ok) throw new Error(`upload of ${name}: ${res.status} ${body}`);
      return performance.now() - started;
    })
    .finally(() => (done = true));
  // Its failure is thrown below, once the probing stops.
  upload.catch(() => undefined);
  const during: number[] = [];
  while (!done) during.push(await health(base));
  const uploadMs = await upload;
  return { uploadMs, probes: during.length, p99: p99(during), idleP99: p99(idle) };
}

async function health(base: string): Promise<number> {
  const asked = performance.now();
  const res = await fetch(`${base}/health`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  return performance.now() - asked;
}

function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)];
}
