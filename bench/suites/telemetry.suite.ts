import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { allCpus, cpuPressureMicros, pinToCpus, setNice } from '../support/cpu-placement.js';
import { ROOT } from '../support/environment.js';
import { drive, driveServer, probe } from '../support/load.js';
import { MetricsScraper } from '../support/metrics-scraper.js';
import { OtlpSink } from '../support/otlp-sink.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import type { ServerProcess } from '../support/server-process.js';
import type { BenchSettings } from '../support/settings.js';
import { countSseEvents } from '../support/sse-frames.js';
import { profileCause } from './telemetry-profile.js';
import { telemetryRows, type ModeRun, type Placement } from './telemetry-rows.js';
import {
  MODES,
  modeEnvironment,
  PLATFORMS,
  ROUTES,
  TELEMETRY_VARIABLES,
  type ModeName,
  type PlatformName,
  type RouteName,
} from './telemetry-modes.js';

const SCRIPT = 'servers/telemetry-llm.server.js';
const MODE_NAMES = Object.keys(MODES) as ModeName[];
const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];
type ServerKey = `${ModeName}-${PlatformName}`;
const KEYS = PLATFORMS.flatMap((p) => MODE_NAMES.map((m): ServerKey => `${m}-${p}`));
/** Nice value of the servers and the harness: other work on the machine waits, not them. */
const NICE = -15;
const modeOf = (key: ServerKey): ModeName => key.split('-')[0] as ModeName;

/** Fails unless every server answers every route, and `/metrics` exists exactly where it is on. */
async function checkAnswers(servers: Record<ServerKey, ServerProcess>): Promise<void> {
  for (const key of KEYS) {
    for (const route of ROUTE_NAMES) {
      const answer = await probe(servers[key].url, ROUTES[route].spec);
      const ok = ROUTES[route].sse ? countSseEvents(answer.body) > 0 : answer.body.startsWith('{');
      if (answer.status !== 200 || !ok) {
        throw new Error(`${key} ${route} answered ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    const metrics = await probe(servers[key].url, { path: '/metrics', method: 'GET' });
    if ((metrics.status === 200) !== MODES[modeOf(key)].metrics) {
      throw new Error(`${key}: GET /metrics answered ${metrics.status}`);
    }
  }
}

/** Waits until no sink has received a span for 7 s (the batch exporter sends every 5 s). */
async function settle(sinks: Partial<Record<ServerKey, OtlpSink>>): Promise<void> {
  const total = (): number => Object.values(sinks).reduce((n, s) => n + (s?.tally.spans ?? 0), 0);
  let quiet = 0;
  while (quiet < 7) {
    const last = total();
    await sleep(1000);
    quiet = total() === last ? quiet + 1 : 0;
  }
}

/**
 * Issue 29's cost of watching: the same app (a JSON route, an LLM answer as JSON, an LLM answer
 * streamed) with metrics and traces on vs off, on Express and Fastify. "On" means what a real
 * deployment has: `/metrics` scraped every second while the server is measured, and spans
 * exported over OTLP/HTTP to a sink in the harness that counts them. Servers run pinned to CPU 1,
 * the harness (autocannon, sinks, scraper) to CPU 0, both at nice -15 when allowed (root), so
 * other work on a shared machine moves the numbers less.
 */
export async function telemetrySuite(settings: BenchSettings): Promise<Row[]> {
  log('telemetry: the same app with metrics and traces on vs off');
  for (const name of Object.keys(process.env)) {
    if (TELEMETRY_VARIABLES.test(name)) delete process.env[name];
  }
  const tracing = existsSync(`${ROOT}libs/framework/src/telemetry/install-tracing.ts`);
  const sinks: Partial<Record<ServerKey, OtlpSink>> = {};
  for (const key of KEYS) if (MODES[modeOf(key)].traces) sinks[key] = await OtlpSink.start();
  const scripts = Object.fromEntries(
    KEYS.map((key) => {
      const [mode, platform] = key.split('-') as [ModeName, PlatformName];
      return [
        key,
        { script: SCRIPT, env: modeEnvironment(MODES[mode], platform, sinks[key]?.url) },
      ];
    }),
  ) as Record<ServerKey, { script: string; env: Record<string, string> }>;
  const placement: Placement = { pinned: false, nice: 0, pressure: NaN };
  const causes: Record<string, string> = {};
  try {
    const runs = await withServers(scripts, async (servers) => {
      const pids = KEYS.map((key) => servers[key].pid);
      placement.pinned = pids.every((pid) => pinToCpus(pid, '1')) && pinToCpus(process.pid, '0');
      placement.nice = [...pids, process.pid].every((pid) => setNice(pid, NICE)) ? NICE : 0;
      log(`  pinned: ${placement.pinned}, nice ${placement.nice}`);
      const pressureBefore = cpuPressureMicros();
      const startedAt = performance.now();
      try {
        await checkAnswers(servers);
        const measured = {} as Record<PlatformName, Record<RouteName, Record<ModeName, ModeRun[]>>>;
        for (const platform of PLATFORMS) {
          measured[platform] = {} as Record<RouteName, Record<ModeName, ModeRun[]>>;
          for (const route of ROUTE_NAMES) {
            log(`  ${platform} ${route}`);
            const { spec } = ROUTES[route];
            for (const mode of MODE_NAMES) {
              await drive(
                servers[`${mode}-${platform}`].url,
                spec,
                settings.warmup,
                settings.connections,
              );
            }
            measured[platform][route] = await interleave(
              MODE_NAMES,
              settings.rounds,
              async (mode) => {
                const key: ServerKey = `${mode}-${platform}`;
                const spansBefore = sinks[key]?.tally.spans ?? 0;
                const scraper = MODES[mode].metrics
                  ? MetricsScraper.start(servers[key].url)
                  : undefined;
                const load = await driveServer(
                  servers[key],
                  spec,
                  settings.duration,
                  settings.connections,
                );
                const scrape = await scraper?.stop();
                return {
                  ...load,
                  busy: (load.cpuMicrosPerRequest * load.requestsPerSec) / 1e6,
                  spans: (sinks[key]?.tally.spans ?? 0) - spansBefore,
                  scrapes: scrape?.scrapes ?? 0,
                  metricsBytes: scrape?.lastBytes ?? 0,
                  droppedSpans: scrape?.droppedSpans ?? NaN,
                };
              },
            );
          }
        }
        for (const platform of PLATFORMS) {
          for (const route of ROUTE_NAMES) {
            log(`  profiling off and on: ${platform} ${route}`);
            causes[`${platform}-${route}`] = await profileCause(platform, route, settings, NICE);
          }
        }
        await settle(sinks);
        const elapsedMicros = (performance.now() - startedAt) * 1000;
        placement.pressure = (cpuPressureMicros() - pressureBefore) / elapsedMicros;
        return measured;
      } finally {
        if (placement.pinned) pinToCpus(process.pid, allCpus());
        setNice(process.pid, 0);
      }
    });
    const exported = Object.fromEntries(
      Object.entries(sinks).map(([key, sink]) => [key, { ...sink.tally }]),
    );
    return telemetryRows(runs, { exported, tracing, placement, causes });
  } finally {
    await Promise.all(Object.values(sinks).map((sink) => sink.close()));
  }
}
