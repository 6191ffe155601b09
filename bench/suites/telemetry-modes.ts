import type { RequestSpec } from '../support/load.js';

/** What is switched on in one server of the telemetry suite. */
export interface TelemetryMode {
  /** `telemetry.metrics`: `GET /metrics`, scraped every second while the server is measured. */
  metrics: boolean;
  /** `telemetry.enabled` with `OTEL_EXPORTER_OTLP_ENDPOINT` at an OTLP sink of the bench. */
  traces: boolean;
  /**
   * The share of traces kept (`OTEL_TRACES_SAMPLER=parentbased_traceidratio` with this as
   * `OTEL_TRACES_SAMPLER_ARG`); every trace when absent, OpenTelemetry's default.
   */
  sampleRatio?: number;
  /** `telemetry.http_instrumentation`: false has toolkit make the HTTP server span. @default true */
  httpInstrumentation?: boolean;
}

/**
 * The six servers per platform: the same app with telemetry off, on (every trace; one in ten as
 * a busy deployment samples; the server span made by toolkit instead of OpenTelemetry's HTTP
 * instrumentation), and each half alone.
 */
export const MODES = {
  off: { metrics: false, traces: false },
  on: { metrics: true, traces: true },
  sampled: { metrics: true, traces: true, sampleRatio: 0.1 },
  toolkitSpans: { metrics: true, traces: true, httpInstrumentation: false },
  metrics: { metrics: true, traces: false },
  traces: { metrics: false, traces: true },
} as const satisfies Record<string, TelemetryMode>;
export type ModeName = keyof typeof MODES;

/** The platforms the app runs on (`TOOLKIT_APP_PLATFORM`). */
export const PLATFORMS = ['express', 'fastify'] as const;
export type PlatformName = (typeof PLATFORMS)[number];

const MESSAGE = { message: 'hello there, how are you today?' };

/** The routes measured, each with what its answer must be before measuring. */
export const ROUTES = {
  echo: {
    spec: { path: '/echo', method: 'POST', json: MESSAGE },
    label: 'JSON POST /echo (`@Route`, no model)',
    sse: false,
  },
  ask: {
    spec: { path: '/ask', method: 'POST', json: MESSAGE },
    label: 'JSON POST /ask (`llm.chat` on the echo model)',
    sse: false,
  },
  chat: {
    spec: { path: '/chat', method: 'POST', json: MESSAGE },
    label: 'SSE POST /chat (`@Stream()` of `llm.chat(…, { stream: true })`, echo model)',
    sse: true,
  },
} as const satisfies Record<string, { spec: RequestSpec; label: string; sse: boolean }>;
export type RouteName = keyof typeof ROUTES;

/** Variables that would switch telemetry on in every server if the harness had them set. */
export const TELEMETRY_VARIABLES = /^(TOOLKIT_TELEMETRY_|OTEL_)/;

/** The environment that gives a server `mode` on `platform`, exporting to `otlpUrl`. */
export function modeEnvironment(
  mode: TelemetryMode,
  platform: PlatformName,
  otlpUrl: string | undefined,
): Record<string, string> {
  return {
    TOOLKIT_APP_PLATFORM: platform,
    ...(mode.metrics ? { TOOLKIT_TELEMETRY_METRICS: 'true' } : {}),
    ...(mode.traces && otlpUrl
      ? { TOOLKIT_TELEMETRY_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl }
      : {}),
    ...(mode.traces && mode.httpInstrumentation === false
      ? { TOOLKIT_TELEMETRY_HTTP_INSTRUMENTATION: 'false' }
      : {}),
    ...(mode.traces && mode.sampleRatio !== undefined
      ? {
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: String(mode.sampleRatio),
        }
      : {}),
  };
}
