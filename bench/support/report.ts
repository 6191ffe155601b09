import type { Environment } from './environment.js';
import { measuredCause } from './measured-cause.js';
import { cpuRatioOf, describeTarget, perWhat, ratioOf, targetMet, type Row } from './row.js';
import type { BenchSettings } from './settings.js';
import { formatNumber, median } from './stats.js';

/** Decimals a unit is shown with: ms to 0.1, a recall (0–1) to 0.001, counts whole. */
function decimals(unit: string): number {
  if (unit === 'recall') return 3;
  return unit === 'ms' ? 1 : 0;
}

function value(n: number, unit: string): string {
  return `${formatNumber(n, decimals(unit))} ${unit}`;
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
        `${ratioOf(row).toFixed(2)}× | ${describeTarget(row.target, row)} | ${verdict(row)} | ` +
        `${cpuRatio === undefined || Number.isNaN(cpuRatio) ? '' : `${cpuRatio.toFixed(2)}×`} |`
      );
    }),
  ];
  return lines.join('\n');
}

function roundsTable(rows: readonly Row[]): string {
  const fmt = (values: number[], unit: string): string =>
    values.map((v) => formatNumber(v, decimals(unit))).join(' / ');
  return [
    '| Benchmark | unit | toolkit per round | baseline per round |',
    '|---|---|---|---|',
    ...rows.flatMap((r) => [
      `| ${r.name} | ${r.unit} | ${fmt(r.toolkit, r.unit)} | ${fmt(r.baseline, r.unit)} |`,
      ...(r.cpu
        ? [
            `| ↳ CPU | µs per ${perWhat(r.unit)} | ${fmt(r.cpu.toolkit, 'ms')} | ${fmt(r.cpu.baseline, 'ms')} |`,
          ]
        : []),
    ]),
  ].join('\n');
}

/** One line on the state of the work tree, so a dirty run can never pass for the commit. */
function treeLine(env: Environment): string {
  const { commit, changed } = env.git;
  if (changed.length === 0) return `Tree: clean at commit ${commit}.`;
  const shown = changed.slice(0, 20).map((path) => `\`${path}\``);
  const more = changed.length > shown.length ? `, and ${changed.length - shown.length} more` : '';
  return (
    `Tree: **had uncommitted changes** on top of commit ${commit} (run with BENCH_ALLOW_DIRTY=1), ` +
    `so these numbers are not commit ${commit}'s: ${shown.join(', ')}${more}.`
  );
}

function missedLine(row: Row, rows: readonly Row[]): string {
  const cause = measuredCause(row, rows);
  return `- **${row.name}**: ${cause ?? 'no CPU time was measured for this row, so no cause is given.'}`;
}

/** The results file's Markdown: every number in it was measured in this run. */
export function renderResults(
  rows: readonly Row[],
  env: Environment,
  settings: BenchSettings,
  methodology: string,
): string {
  const missed = rows.filter((r) => targetMet(r) === false);
  return [
    `# Benchmark results ${env.date}, commit ${env.git.commit}`,
    '',
    treeLine(env),
    '',
    `Command: \`${env.commandLine}\``,
    '',
    `Settings: ${settings.duration} s per run, ${settings.rounds} round${settings.rounds === 1 ? '' : 's'} (median reported), ` +
      `${settings.connections} connections, ${settings.warmup} s warm-up, ${settings.cliRuns} CLI spawns ` +
      `per round, ${settings.opsConcurrency} concurrent lanes in the memory/TestClient workers. Every ` +
      'server runs in its own process on 127.0.0.1; autocannon drives it from the harness process. ' +
      `Node.js ${process.version} (servers and harness).`,
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
    ...(rows.some((r) => r.evidence !== undefined)
      ? [
          '## Observed in this run',
          '',
          ...rows
            .filter((r) => r.evidence !== undefined)
            .map((r) => `- **${r.name}**: ${r.evidence}`),
          '',
        ]
      : []),
    ...(missed.length > 0
      ? [
          '## Targets missed: what this run measured',
          '',
          ...missed.map((row) => missedLine(row, rows)),
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
    '## Methodology',
    '',
    methodology.trim(),
    '',
  ].join('\n');
}
