import type { ServerLoad } from '../support/load.js';
import type { OtlpTally } from '../support/otlp-sink.js';
import { roundRatios, type Row } from '../support/row.js';
import { formatNumber, median } from '../support/stats.js';
import {
  MODES,
  PLATFORMS,
  ROUTES,
  type ModeName,
  type PlatformName,
  type RouteName,
} from './telemetry-modes.js';

/** One measured run of one server of the telemetry suite. */
export interface ModeRun extends ServerLoad {
  /** Fraction of one CPU the server used during the run (1 = the server was the bottleneck). */
  busy: number;
  /** Spans the server's OTLP sink received while the run lasted. */
  spans: number;
  /** `GET /metrics` scrapes answered during the run. */
  scrapes: number;
  /** Bytes of the last exposition scraped. */
  metricsBytes: number;
  /** `toolkit_trace_spans_dropped_total` at the run's last scrape; NaN without one. */
  droppedSpans: number;
}

/** How the suite's processes were placed, and how busy the machine was meanwhile. */
export interface Placement {
  /** Servers on CPU 1, the harness on CPU 0. */
  pinned: boolean;
  /** Nice value of the servers and the harness (0 when it could not be raised). */
  nice: number;
  /** Share of the suite's time some task waited for a CPU (Linux PSI), NaN if unknown. */
  pressure: number;
}

/** What the suite observed besides the measured runs. */
export interface Observed {
  /** What each server's OTLP sink received in all, by server (`on-express`, ...). */
  exported: Record<string, OtlpTally>;
  /** Whether the tree has toolkit's tracing (`install-tracing.ts`). */
  tracing: boolean;
  placement: Placement;
  /** The profiled cause per `<platform>-<route>`, for the on rows. */
  causes: Record<string, string>;
}

type Measured = Record<PlatformName, Record<RouteName, Record<ModeName, ModeRun[]>>>;

const COMPARED = {
  on: { what: 'metrics + traces on', target: 0.97 },
  sampled: { what: 'metrics + traces on, one trace in ten sampled', target: 0.97 },
  toolkitSpans: {
    what: "metrics + traces on, the HTTP server span toolkit's (http_instrumentation: false)",
    target: 0.97,
  },
  metrics: { what: 'only metrics on', target: undefined },
  traces: { what: 'only traces on', target: undefined },
} as const;

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const percent = (runs: ModeRun[]): string =>
  `${formatNumber(median(runs.map((r) => r.busy)) * 100)}%`;

/** Round ratios, their median and spread, the CPU each side used, and what it exported. */
function evidence(
  mode: keyof typeof COMPARED,
  runs: Record<ModeName, ModeRun[]>,
  exported: OtlpTally | undefined,
  { tracing, placement }: Observed,
  cause: string | undefined,
): string {
  const on = runs[mode];
  const ratios = roundRatios(
    on.map((r) => r.requestsPerSec),
    runs.off.map((r) => r.requestsPerSec),
  );
  const parts = [
    `req/s ratio per round ${ratios.map((r) => r.toFixed(3)).join(' / ')} (median ` +
      `${median(ratios).toFixed(3)}, spread ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
    `server CPU busy (median): ${percent(on)} ${mode}, ${percent(runs.off)} off`,
  ];
  if (MODES[mode].traces) {
    const spans = sum(on.map((r) => r.spans));
    const requests = sum(on.map((r) => r.requests));
    parts.push(
      spans === 0
        ? `**no spans were exported** (${tracing ? 'tracing is in the tree but sent nothing' : 'libs/framework/src/telemetry/install-tracing.ts is not in this tree'})`
        : `spans received by the OTLP sink during these runs: ${formatNumber(spans)} for ` +
            `${formatNumber(requests)} requests (${(spans / requests).toFixed(2)} per request); this ` +
            `server's sink in all: ${formatNumber(exported?.spans ?? 0)} spans in ` +
            `${formatNumber(exported?.requests ?? 0)} exports, ${formatNumber((exported?.bytes ?? 0) / 1024)} KiB`,
    );
  }
  if (MODES[mode].metrics) {
    parts.push(
      `/metrics scraped ${sum(on.map((r) => r.scrapes))} times during these runs ` +
        `(last exposition ${formatNumber(on.at(-1)?.metricsBytes ?? 0)} bytes` +
        (MODES[mode].traces
          ? `, \`toolkit_trace_spans_dropped_total\` ${formatNumber(on.at(-1)?.droppedSpans ?? NaN)} after the last run)`
          : ')'),
    );
  }
  if (mode === 'sampled') {
    parts.push(
      `\`OTEL_TRACES_SAMPLER=parentbased_traceidratio\`, \`OTEL_TRACES_SAMPLER_ARG=${MODES.sampled.sampleRatio}\``,
    );
  }
  if (mode === 'on') {
    parts.push(
      `servers ${placement.pinned ? 'pinned to CPU 1, harness to CPU 0' : 'not pinned'}, nice ` +
        `${placement.nice}; some task waited for a CPU ${formatNumber(placement.pressure * 100)}% ` +
        'of the suite (PSI)',
    );
    if (cause) parts.push(cause);
  }
  return `${parts.join('; ')}.`;
}

/**
 * The telemetry suite's rows: per platform and route, metrics + traces on vs off (the issue's
 * ≥ 0.97× target), and each half alone for context. Ratios are medians of per-round ratios.
 */
export function telemetryRows(measured: Measured, observed: Observed): Row[] {
  return PLATFORMS.flatMap((platform) =>
    (Object.keys(ROUTES) as RouteName[]).flatMap((route) =>
      (Object.keys(COMPARED) as (keyof typeof COMPARED)[]).map((mode): Row => {
        const runs = measured[platform][route];
        const { what, target } = COMPARED[mode];
        return {
          id: `telemetry-${mode}-${route}-${platform}`,
          name: `${ROUTES[route].label} on ${platform}: ${what} vs off`,
          unit: 'req/s',
          toolkit: runs[mode].map((r) => r.requestsPerSec),
          baseline: runs.off.map((r) => r.requestsPerSec),
          cpu: {
            toolkit: runs[mode].map((r) => r.cpuMicrosPerRequest),
            baseline: runs.off.map((r) => r.cpuMicrosPerRequest),
          },
          paired: true,
          ...(target ? { target: { kind: 'min' as const, value: target } } : {}),
          ...(mode !== 'metrics' && mode !== 'traces'
            ? {
                decomposedBy: [
                  `telemetry-metrics-${route}-${platform}`,
                  `telemetry-traces-${route}-${platform}`,
                ],
              }
            : {}),
          evidence: evidence(
            mode,
            runs,
            observed.exported[`${mode}-${platform}`],
            observed,
            observed.causes[`${platform}-${route}`],
          ),
        };
      }),
    ),
  );
}
