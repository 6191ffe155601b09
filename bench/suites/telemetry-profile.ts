import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinToCpus, setNice } from '../support/cpu-placement.js';
import { summarizeProfile, type ProfileSummary } from '../support/cpu-profile.js';
import { drive, driveServer } from '../support/load.js';
import { MetricsScraper } from '../support/metrics-scraper.js';
import { OtlpSink } from '../support/otlp-sink.js';
import { ServerProcess } from '../support/server-process.js';
import type { BenchSettings } from '../support/settings.js';
import { formatNumber } from '../support/stats.js';
import {
  MODES,
  modeEnvironment,
  ROUTES,
  type PlatformName,
  type RouteName,
} from './telemetry-modes.js';

/** Where a sampled function's code lives, for the cost of watching. */
function bucketOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'V8 and native code';
  if (url.includes('node_modules/@opentelemetry/')) return 'OpenTelemetry packages';
  if (/\/libs\/[a-z]+\/src\/telemetry\//.test(url)) return 'toolkit telemetry code';
  if (url.startsWith('node:')) return 'Node.js core';
  return 'the rest (app, toolkit, Nest, platform)';
}

/** One profiled run of one server: its summary over the measured window and its request count. */
async function profiledRun(
  mode: 'off' | 'on',
  platform: PlatformName,
  route: RouteName,
  settings: BenchSettings,
  nice: number,
): Promise<{ summary: ProfileSummary; requests: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-telemetry-prof-'));
  const sink = mode === 'on' ? await OtlpSink.start() : undefined;
  const server = await ServerProcess.start(
    `profiled-${mode}`,
    'servers/telemetry-llm.server.js',
    modeEnvironment(MODES[mode], platform, sink?.url),
    ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  );
  try {
    pinToCpus(server.pid, '1');
    setNice(server.pid, nice);
    const { spec } = ROUTES[route];
    await drive(server.url, spec, settings.warmup, settings.connections);
    const scraper = MODES[mode].metrics ? MetricsScraper.start(server.url) : undefined;
    const fromMicros = Number(process.hrtime.bigint() / 1000n);
    const load = await driveServer(server, spec, settings.duration, settings.connections);
    const toMicros = Number(process.hrtime.bigint() / 1000n);
    await scraper?.stop();
    await server.stop();
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`profiled ${mode} server wrote no .cpuprofile`);
    const summary = summarizeProfile(join(dir, file), bucketOf, { fromMicros, toMicros });
    return { summary, requests: load.requests };
  } finally {
    await server.stop();
    await sink?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The measured cause of what watching costs one route: a separate run of the off and the on
 * server under `--cpu-prof`, their self time per request by where the code lives (samples of the
 * measured window only), and the functions that took most of the on server's telemetry time.
 */
export async function profileCause(
  platform: PlatformName,
  route: RouteName,
  settings: BenchSettings,
  nice: number,
): Promise<string> {
  const off = await profiledRun('off', platform, route, settings, nice);
  const on = await profiledRun('on', platform, route, settings, nice);
  const perRequest = (run: typeof off, bucket: string): number =>
    (run.summary.buckets[bucket] ?? 0) / run.requests;
  const buckets = [
    ...new Set([...Object.keys(off.summary.buckets), ...Object.keys(on.summary.buckets)]),
  ]
    .filter((bucket) => bucket !== 'idle')
    .map((bucket) => ({ bucket, off: perRequest(off, bucket), on: perRequest(on, bucket) }))
    .sort((a, b) => b.on - b.off - (a.on - a.off));
  const total = (run: typeof off): number =>
    buckets.reduce((sum, b) => sum + (run === off ? b.off : b.on), 0);
  const show = (n: number): string => formatNumber(n, 1);
  const sign = (n: number): string => (n >= 0 ? `+${show(n)}` : `−${show(-n)}`);
  const offMicros = new Map(off.summary.functions.map((f) => [f.name, f.micros / off.requests]));
  const grown = on.summary.functions
    .map((f) => ({ ...f, growth: f.micros / on.requests - (offMicros.get(f.name) ?? 0) }))
    .sort((a, b) => b.growth - a.growth)
    .slice(0, 8)
    .map((f) => `${f.name} ${sign(f.growth)} µs`);
  return (
    `CPU profile of a separate run (\`--cpu-prof\`, ${settings.duration} s each, samples of the ` +
    `measured window only): busy µs per request off ${show(total(off))} → on ${show(total(on))} ` +
    `(${sign(total(on) - total(off))}); by where the code lives: ` +
    buckets
      .map((b) => `${b.bucket} ${show(b.off)} → ${show(b.on)} (${sign(b.on - b.off)})`)
      .join(', ') +
    `; the functions whose self time per request grew most: ${grown.join(', ')}`
  );
}
