import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Environment } from './environment.js';
import { cpuRatioOf, describeTarget, ratioOf, targetMet, type Row } from './row.js';
import type { BenchSettings } from './settings.js';
import { formatNumber, median } from './stats.js';

const RESULTS_DIR = fileURLToPath(new URL('../../../bench/results/', import.meta.url));

function value(n: number, unit: string): string {
  return `${formatNumber(n, unit === 'ms' ? 1 : 0)} ${unit}`;
}

function verdict(row: Row): string {
  const met = targetMet(row);
  return met === undefined ? '' : met ? 'met' : 'MISSED';
}

/** The ratio table as Markdown (it reads fine in a terminal too). */
export function ratioTable(rows: readonly Row[]): string {
  const lines = [
    '| Benchmark | toolkit | baseline | ratio | target | | CPU ratio |',
    '|---|---:|---:|---:|---|---|---:|',
    ...rows.map((row) => {
      const cpuRatio = cpuRatioOf(row);
      return (
        `| ${row.name} | ${value(median(row.toolkit), row.unit)} | ${value(median(row.baseline), row.unit)} | ` +
        `${ratioOf(row).toFixed(2)}× | ${describeTarget(row.target)} | ${verdict(row)} | ` +
        `${cpuRatio === undefined || Number.isNaN(cpuRatio) ? '' : `${cpuRatio.toFixed(2)}×`} |`
      );
    }),
  ];
  return lines.join('\n');
}

function roundsTable(rows: readonly Row[]): string {
  const fmt = (values: number[], unit: string): string =>
    values.map((v) => formatNumber(v, unit === 'ms' ? 1 : 0)).join(' / ');
  return [
    '| Benchmark | unit | toolkit per round | baseline per round |',
    '|---|---|---|---|',
    ...rows.flatMap((r) => [
      `| ${r.name} | ${r.unit} | ${fmt(r.toolkit, r.unit)} | ${fmt(r.baseline, r.unit)} |`,
      ...(r.cpu
        ? [
            `| ↳ server CPU | µs per ${r.unit.replace('/s', '')} | ${fmt(r.cpu.toolkit, 'ms')} | ${fmt(r.cpu.baseline, 'ms')} |`,
          ]
        : []),
    ]),
  ].join('\n');
}

/** Writes `bench/results/<date>.md` and returns its path. */
export function writeResults(
  rows: readonly Row[],
  env: Environment,
  settings: BenchSettings,
  notes: string,
): string {
  const missed = rows.filter((r) => targetMet(r) === false);
  const text = [
    `# Benchmark results ${env.date}`,
    '',
    `Command: \`${env.commandLine}\` (commit ${env.commit})`,
    '',
    `Settings: ${settings.duration} s per run, ${settings.rounds} rounds (median reported), ` +
      `${settings.connections} connections, ${settings.warmup} s warm-up, ${settings.cliRuns} CLI spawns ` +
      `per round, ${settings.opsConcurrency} concurrent lanes in the memory/TestClient workers. Every ` +
      'server runs in its own process on 127.0.0.1; autocannon drives it from the harness process.',
    '',
    '## Ratios',
    '',
    ratioTable(rows),
    '',
    'ratio = toolkit ÷ baseline of the medians; for `ms` rows lower is better. CPU ratio = the ' +
      "baseline's CPU time per request or op ÷ toolkit's (same direction as the throughput " +
      'ratio; the server process for HTTP rows, the worker process for memory and TestClient ' +
      'rows, where the Redis/PostgreSQL servers are not included), a cross-check that other ' +
      'load on the machine barely moves.',
    '',
    ...(missed.length > 0
      ? [
          '## Targets missed: measured cause',
          '',
          ...missed.map((r) => `- **${r.name}**: ${r.whenMissed ?? 'no cause recorded.'}`),
          '',
        ]
      : []),
    '## Per round',
    '',
    roundsTable(rows),
    '',
    '## Machine',
    '',
    ...env.machine.map((m) => `- ${m}`),
    '',
    '## Versions',
    '',
    ...Object.entries(env.versions).map(([name, version]) => `- ${name} ${version}`),
    '',
    ...(notes ? ['## Notes', '', notes.trim(), ''] : []),
  ].join('\n');
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}${env.date}.md`;
  writeFileSync(file, text);
  return file;
}
