// `npm run bench`: runs every suite, prints ONE table of toolkit/baseline ratios measured in this
// run, and writes a new bench/results/<date>-<commit>.md. Settings: support/settings.ts (BENCH_*).
import { fileURLToPath } from 'node:url';
import { appStartSuite } from './suites/app-start.suite.js';
import { cacheSuite } from './suites/cache.suite.js';
import { cliSuite } from './suites/cli.suite.js';
import { ingestSuite } from './suites/ingest.suite.js';
import { jsonSuite } from './suites/json.suite.js';
import { memorySuite } from './suites/memory.suite.js';
import { ragIndexSuite } from './suites/rag-index.suite.js';
import { platformSuite } from './suites/platform.suite.js';
import { sseSuite } from './suites/sse.suite.js';
import { telemetrySuite } from './suites/telemetry.suite.js';
import { testClientSuite } from './suites/test-client.suite.js';
import { describeEnvironment, ROOT } from './support/environment.js';
import { readGitState } from './support/git-state.js';
import { methodology } from './support/methodology.js';
import { ratioTable, renderResults } from './support/report.js';
import { resultsBaseName, writeNewResultsFile } from './support/results-file.js';
import { log } from './support/rounds.js';
import type { Row } from './support/row.js';
import { readSettings, type BenchSettings } from './support/settings.js';

const SUITES: Record<string, (settings: BenchSettings) => Promise<Row[]>> = {
  json: jsonSuite,
  sse: sseSuite,
  cache: cacheSuite,
  memory: memorySuite,
  cli: cliSuite,
  start: appStartSuite,
  testclient: testClientSuite,
  rag: ragIndexSuite,
  platform: platformSuite,
  ingest: ingestSuite,
  telemetry: telemetrySuite,
};

const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));

const settings = readSettings();
const git = readGitState(ROOT);
if (git.changed.length > 0 && !settings.allowDirty) {
  process.stderr.write(
    `[bench] refused: the git tree has uncommitted changes (${git.changed.length} ` +
      `path${git.changed.length === 1 ? '' : 's'}, e.g. ` +
      `${git.changed[0]}); commit them, or set BENCH_ALLOW_DIRTY=1 to record a "-dirty" run\n`,
  );
  process.exit(1);
}
const environment = await describeEnvironment(settings, git);
const rows: Row[] = [];
for (const name of settings.only) rows.push(...(await SUITES[name](settings)));

const text = renderResults(rows, environment, settings, methodology(settings));
const file = writeNewResultsFile(
  RESULTS_DIR,
  resultsBaseName(environment.date, git, settings.label),
  text,
);
process.stdout.write(`\n${ratioTable(rows)}\n\n`);
log(`results written to ${file}`);
