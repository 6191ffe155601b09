import type { UsageReport } from '../../../providers/src/llm/chat-model.interface.js';
import { Counter } from './counter.js';
import { Gauge } from './gauge.js';
import { Histogram } from './histogram.js';
import { MetricsRegistry } from './metrics-registry.js';

/** OpenTelemetry's advised buckets for `http.server.request.duration`, in seconds. */
const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
/** OpenTelemetry's advised buckets for `gen_ai.client.operation.duration`, in seconds. */
const OPERATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
/** OpenTelemetry's advised buckets for `gen_ai.client.token.usage`. */
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
/** Methods kept as they are; any other is `_OTHER` (OpenTelemetry's rule, which bounds the label). */
const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
]);
const GEN_AI_LABELS = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model'];

/** What the stream gauges read at each scrape. */
export interface StreamCounts {
  /** SSE streams open now (`StreamRegistry.size`). */
  openStreams: () => number;
  /** Resumable streams whose producer runs in this process (`ResumableStreams.running`). */
  runningResumable: () => number;
}

/** One finished HTTP request, as the duration histogram counts it. */
export interface HttpRequestSample {
  method: string;
  /** The matched route's pattern; `undefined` when none matched (the label is then left out). */
  route: string | undefined;
  status: number;
  durationSeconds: number;
  /** A `@Cache()` route's outcome (its `X-Cache` header), if any. */
  cache?: 'hit' | 'miss';
}

/**
 * The metrics toolkit keeps for an app (`telemetry.metrics`), named by the OpenTelemetry semantic
 * conventions as OpenTelemetry's Prometheus exporter writes them: `http_server_request_duration_seconds`,
 * `gen_ai_client_operation_duration_seconds`, `gen_ai_client_token_usage`, plus toolkit's own `toolkit_llm_cost_usd_total` and stream gauges.
 * Every label is bounded: route patterns, never paths; no user ids.
 */
export class ToolkitMetrics {
  /** Everything below, for `GET /metrics`. */
  readonly registry = new MetricsRegistry();
  private readonly httpDuration = this.registry.register(
    new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: HTTP_DURATION_BUCKETS,
    }),
  );
  private readonly operationDuration = this.registry.register(
    new Histogram({
      name: 'gen_ai_client_operation_duration_seconds',
      help: 'GenAI operation duration.',
      labelNames: GEN_AI_LABELS,
      buckets: OPERATION_BUCKETS,
    }),
  );
  private readonly tokenUsage = this.registry.register(
    new Histogram({
      name: 'gen_ai_client_token_usage',
      help: 'Number of input and output tokens used.',
      labelNames: [...GEN_AI_LABELS, 'gen_ai_token_type'],
      buckets: TOKEN_BUCKETS,
    }),
  );
  private readonly cost = this.registry.register(
    new Counter({
      name: 'toolkit_llm_cost_usd_total',
      help: 'USD spent on LLM calls whose price is known.',
      labelNames: ['gen_ai_provider_name', 'gen_ai_request_model'],
    }),
  );

  private readonly cacheRequests = this.registry.register(
    new Counter({
      name: 'toolkit_cache_requests_total',
      help: 'Requests of @Cache() routes, by whether the cache answered.',
      labelNames: ['http_route', 'toolkit_cache_result'],
    }),
  );

  constructor(streams: StreamCounts) {
    this.registry.register(
      new Gauge({
        name: 'toolkit_sse_streams_open',
        help: 'SSE streams open now.',
        read: streams.openStreams,
      }),
    );
    this.registry.register(
      new Gauge({
        name: 'toolkit_resumable_streams_running',
        help: 'Resumable streams whose producer runs in this process.',
        read: streams.runningResumable,
      }),
    );
  }

  /** Counts one finished HTTP request. */
  recordRequest(sample: HttpRequestSample): void {
    const method = KNOWN_METHODS.has(sample.method) ? sample.method : '_OTHER';
    this.httpDuration.observe(
      [method, sample.route, String(sample.status)],
      sample.durationSeconds,
    );
    if (sample.cache) this.cacheRequests.add([sample.route, sample.cache]);
  }

  /** Counts one LLM call's usage report: its duration, its tokens by type, and its cost when known. */
  recordUsage(report: UsageReport): void {
    const labels = ['chat', report.provider, report.model];
    if (report.durationMs !== undefined) {
      this.operationDuration.observe(labels, report.durationMs / 1000);
    }
    this.tokenUsage.observe([...labels, 'input'], report.inputTokens);
    this.tokenUsage.observe([...labels, 'output'], report.outputTokens);
    if (report.costUsd !== undefined)
      this.cost.add([report.provider, report.model], report.costUsd);
  }
}
