// Ingestion throughput over the real-document corpus (scripts/build-corpus.sh), in its own process:
//   node ingest-corpus.worker.js <index|load> <corpus dir>
// `index`: every file through `DocumentIndex.ingest` (parse in a worker thread, chunk, embed with
// the offline hashing embedder, store locally), one at a time, into a fresh folder.
// `load`: the same files through `loadDocument` only (text extraction, this thread): the baseline.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentIndex, loadDocument } from 'toolkit/rag';
import { report } from '../support/ops-loop.js';

const [mode, corpusDir] = process.argv.slice(2);
if (!['index', 'load'].includes(mode) || !corpusDir) {
  throw new Error('usage: ingest-corpus.worker.js <index|load> <corpus dir>');
}
const folder = join(corpusDir, 'files');
const files = readdirSync(folder)
  .sort()
  .map((name) => ({ name, content: readFileSync(join(folder, name)) }));
const root = mkdtempSync(join(tmpdir(), 'tk-bench-ingest-'));
// A generous parse budget: this measures speed, and a file refused half-way would inflate it.
const index =
  mode === 'index'
    ? await DocumentIndex.open({
        documentsDir: join(root, 'documents'),
        ingestion: { timeoutMs: 600_000 },
      })
    : undefined;
try {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const perFile: { name: string; kb: number; ms: number }[] = [];
  for (const { name, content } of files) {
    const at = performance.now();
    if (index) await index.ingest(content, name);
    else await loadDocument(content, name);
    perFile.push({ name, kb: content.length / 1024, ms: performance.now() - at });
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const kb = files.reduce((sum, f) => sum + f.content.length, 0) / 1024;
  report({
    files: files.length,
    kb,
    seconds,
    kbPerSec: kb / seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    perFile,
  });
} finally {
  await index?.close();
  rmSync(root, { recursive: true, force: true });
}
