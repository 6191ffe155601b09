import type { UsageReport } from '../../../providers/src/index.js';
import { Counter } from './counter.js';
import { DroppedSpansCounter } from './dropped-spans.js';
import { Gauge } from './gauge.js';
import { Histogram } from './histogram.js';
import { MetricsRegistry } from './metrics-registry.js';
import {
  HTTP_DURATION_BUCKETS,
  KNOWN_METHODS,
  OPERATION_BUCKETS,
  TOKEN_BUCKETS,
} from './semantic-conventions.js';
import type { BackendName, RequestFailure } from './request-failure.js';

const GEN_AI_LABELS = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model'];
/** User ids with a cost series of their own; later ones share `_other` (bounded cardinality). */
export const MAX_COST_USERS = 1000;
/** The backends of `toolkit_backend_errors_total`, each a series from the start (at 0). */
const BACKENDS: readonly BackendName[] = ['memory', 'cache', 'stream_log'];

/** What the stream gauges read at each scrape. */
export interface StreamCounts {
  /** SSE streams open now (`StreamRegistry.size`). */
  openStreams: () => number;
  /** Resumable streams whose producer runs in this process (`ResumableStreams.running`). */
  runningResumable: () => number;
}

/** What `ToolkitMetrics` counts besides its defaults. */
export interface ToolkitMetricsOptions {
  /** Count cost by user too (`telemetry.metrics_cost_by_user`). @default false */
  costByUser?: boolean;
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
 * `gen_ai_client_operation_duration_seconds`, `gen_ai_client_token_usage`,
 * `gen_ai_client_operation_time_to_first_chunk_seconds` (streamed calls), plus toolkit's own
 * `toolkit_llm_cost_usd_total`, `toolkit_llm_budget_refusals_total`,
 * `toolkit_backend_errors_total{backend}` and stream gauges; with `costByUser`,
 * `toolkit_llm_user_cost_usd_total{user_id}`. Every label is bounded: route patterns, never
 * paths; user ids only when asked, at most {@link MAX_COST_USERS} of them.
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
  private readonly timeToFirstChunk = this.registry.register(
    new Histogram({
      name: 'gen_ai_client_operation_time_to_first_chunk_seconds',
      help: 'Time to receive the first chunk of a streamed GenAI operation.',
      labelNames: GEN_AI_LABELS,
      buckets: OPERATION_BUCKETS,
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

  private readonly budgetRefusals = this.registry.register(
    new Counter({
      name: 'toolkit_llm_budget_refusals_total',
      help: "Requests refused because the user's daily LLM budget is spent.",
    }),
  );
  private readonly backendErrors = this.registry.register(
    new Counter({
      name: 'toolkit_backend_errors_total',
      help: 'Failed operations of the memory, cache and stream log backends that reached toolkit.',
      labelNames: ['backend'],
    }),
  );

  private readonly userCost: Counter | undefined;
  private readonly costUsers = new Set<string>();

  constructor(streams: StreamCounts, options: ToolkitMetricsOptions = {}) {
    this.userCost = options.costByUser
      ? this.registry.register(
          new Counter({
            name: 'toolkit_llm_user_cost_usd_total',
            help: 'USD spent on LLM calls whose price is known, by the userId of the call.',
            labelNames: ['user_id'],
            maxSeries: MAX_COST_USERS + 1, // and `_other`
          }),
        )
      : undefined;
    this.registry.register(new DroppedSpansCounter());
    this.budgetRefusals.add([], 0);
    for (const backend of BACKENDS) this.backendErrors.add([backend], 0);
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

  /**
   * Counts one LLM call's usage report: its duration, its time to first token (streamed calls),
   * its tokens by type, and its cost when known.
   */
  recordUsage(report: UsageReport): void {
    const labels = ['chat', report.provider, report.model];
    if (report.durationMs !== undefined) {
      this.operationDuration.observe(labels, report.durationMs / 1000);
    }
    if (report.timeToFirstTokenMs !== undefined) {
      this.timeToFirstChunk.observe(labels, report.timeToFirstTokenMs / 1000);
    }
    this.tokenUsage.observe([...labels, 'input'], report.inputTokens);
    this.tokenUsage.observe([...labels, 'output'], report.outputTokens);
    if (report.costUsd === undefined) return;
    this.cost.add([report.provider, report.model], report.costUsd);
    if (this.userCost && report.userId !== undefined) {
      this.userCost.add([this.costUserLabel(report.userId)], report.costUsd);
    }
  }

  /** The user's own label while fewer than {@link MAX_COST_USERS} have one, then `_other`. */
  private costUserLabel(userId: string): string {
    if (this.costUsers.has(userId)) return userId;
    if (this.costUsers.size >= MAX_COST_USERS) return '_other';
    this.costUsers.add(userId);
    return userId;
  }

  /** Counts a budget refusal or a backend failure of a request. */
  recordFailure(failure: RequestFailure): void {
    if (failure.kind === 'budget-refusal') this.budgetRefusals.add([]);
    else this.backendErrors.add([failure.backend]);
  }
}
