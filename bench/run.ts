// `npm run bench`: runs every suite, prints ONE table of toolkit/baseline ratios measured in this
// run, and writes bench/results/<date>.md. Settings: see support/settings.ts (BENCH_* variables).
import { cacheSuite } from './suites/cache.suite.js';
import { cliSuite } from './suites/cli.suite.js';
import { jsonSuite } from './suites/json.suite.js';
import { memorySuite } from './suites/memory.suite.js';
import { sseSuite } from './suites/sse.suite.js';
import { testClientSuite } from './suites/test-client.suite.js';
import { describeEnvironment } from './support/environment.js';
import { METHODOLOGY, MISSED_CAUSES } from './support/methodology.js';
import { ratioTable, writeResults } from './support/report.js';
import { log } from './support/rounds.js';
import type { Row } from './support/row.js';
import { readSettings, type BenchSettings } from './support/settings.js';

const SUITES: Record<string, (settings: BenchSettings) => Promise<Row[]>> = {
  json: jsonSuite,
  sse: sseSuite,
  cache: cacheSuite,
  memory: memorySuite,
  cli: cliSuite,
  testclient: testClientSuite,
};

const settings = readSettings();
const environment = await describeEnvironment(settings);
const rows: Row[] = [];
for (const name of settings.only) rows.push(...(await SUITES[name](settings)));
for (const row of rows) row.whenMissed ??= MISSED_CAUSES[row.id];

const file = writeResults(rows, environment, settings, METHODOLOGY);
process.stdout.write(`\n${ratioTable(rows)}\n\n`);
log(`results written to ${file}`);
