import type { CacheSettings, MemorySettings } from '../../../providers/src/index.js';
import type { LimitsSettings } from '../rate-limit/limits-settings.js';
import type { McpSettings } from '../mcp/client/mcp-settings.js';
import type { RagSettings } from './rag-settings.js';

/** Resolved `app.*` settings. */
export interface AppSettings {
  /** Application name shown in the banner and OpenAPI document. @default "toolkit-app" */
  name: string;
  /** Debug mode: 500 answers carry the message and stack. `DEBUG=true` sets it. @default false */
  debug: boolean;
  /** Largest JSON/form request body in bytes (uploads have their own limit). @default 1048576 (1 MiB) */
  body_limit: number;
  /** Largest uploaded file in bytes (multipart uploads, see `readUploads`). @default 20971520 (20 MiB) */
  upload_limit: number;
  /** SSE heartbeat period in seconds: a silent stream sends a `: ping` comment after one to two periods. 0 disables. @default 15 */
  sse_heartbeat: number;
  /**
   * Seconds open streams get to finish when the app shuts down (`app.close()`, SIGTERM, SIGINT);
   * then each ends with `event: error` saying the server is shutting down. @default 5
   */
  shutdown_grace: number;
  /**
   * Key that signs `@Session()` cookies; set it (e.g. `TOOLKIT_APP_SESSION_SECRET` in `.env`) so
   * sessions survive restarts and every instance recognises them. Empty: a random key per process.
   * @default ""
   */
  session_secret: string;
  /**
   * The app runs behind a proxy (load balancer, platform router) whose `X-Forwarded-Proto` says
   * whether the client used https, which marks session cookies `Secure`; an incoming
   * `X-Request-Id` from it is then kept (when well-formed) instead of a new one. @default false
   */
  trust_proxy: boolean;
  /**
   * One log line per request once it is answered (context `Access`, level `log`): method, route
   * pattern (never the raw path or query), status, duration in ms, body bytes, and for LLM routes
   * model, tokens and cost. `App` then also enables the `log` level of its own logger.
   * @default false
   */
  access_log: boolean;
  /**
   * How `App`'s logger writes: `text` (Nest's lines) or `json` (one JSON object per line, Nest's
   * `ConsoleLogger` with `json: true`), each with the request id of a line written during a
   * request. Not used when you pass your own `LoggerService` as `new App({ logger })`.
   * @default "text"
   */
  log_format: 'text' | 'json';
  /**
   * The HTTP server toolkit runs on: `express` (`@nestjs/platform-express`) or `fastify`
   * (`@nestjs/platform-fastify`, installed by the project: about three times the requests per
   * second on small JSON routes). Every toolkit feature answers the same on both. `App` reads it
   * (also as `new App({ platform })` and `TOOLKIT_APP_PLATFORM`); a Nest application of yours
   * uses the adapter you create it with. @default "express"
   */
  platform: 'express' | 'fastify';
  /**
   * Seconds a client has to send a request's headers (Node's `server.headersTimeout`); then the
   * connection is answered 408 and closed. Never longer than `request_timeout`. 0: no limit.
   * @default 20
   */
  headers_timeout: number;
  /**
   * Seconds a client has to send a whole request, headers and body (Node's
   * `server.requestTimeout`): a body still arriving then is cut with a 408, so a body sent a byte
   * at a time holds no connection for long. It covers receiving the request only: a stream
   * (SSE) answering it runs as long as it lasts. Raise it for large uploads over slow links
   * (60 s carries the default 20 MiB `upload_limit` at about 3 Mbit/s). 0: no limit.
   * @default 60
   */
  request_timeout: number;
  /**
   * Seconds an idle keep-alive connection stays open for a next request. Behind a load balancer,
   * make it longer than the balancer's own idle timeout. 0: connections close after each answer.
   * @default 5
   */
  keep_alive_timeout: number;
  /**
   * Connections the server holds at once (Node's `server.maxConnections`); one more is closed
   * as it arrives, while the open ones keep working. Each open SSE stream holds one. 0: no cap.
   * @default 10000
   */
  max_connections: number;
  /**
   * Connections one client address may hold at once; one more is answered 503 and closed, so a
   * single client cannot take every connection. Not applied with `trust_proxy` (every
   * connection then comes from the proxy). 0: no cap. @default 256
   */
  max_connections_per_address: number;
}

/** Resolved `llm.*` settings. */
export interface LlmSettings {
  /** Provider used when a model name is ambiguous; `auto` detects it from the name. @default "auto" */
  default_provider: string;
  /**
   * Model used by the injected `LLM`. `auto` picks the first provider whose key is set
   * (OpenAI, then Anthropic, then Gemini, Mistral, DeepSeek, Grok) and otherwise the offline `echo`.
   * @default "auto"
   */
  default_model: string;
  /** Sampling temperature, 0 to 2. @default 0.7 */
  temperature: number;
  /** Upper bound on generated tokens per call. @default 1024 */
  max_tokens: number;
  /** Seconds before a provider call is abandoned (answered 504). @default 60 */
  timeout: number;
  /** Retries the provider SDK makes on 429/5xx/connection errors, with backoff. @default 2 */
  max_retries: number;
  /** Pause between the words the offline `echo` model streams, so a chat UI shows them arrive. @default 0 */
  echo_delay_ms: number;
  /**
   * Prices in USD per 1M input/output tokens by model name or name prefix, over the built-in
   * table (`PRICE_TABLE`); usage reports carry `costUsd` when a price is known. From the
   * environment: `TOOLKIT_LLM_PRICES` as JSON. @default {}
   */
  prices: Record<string, { input: number; output: number }>;
  /**
   * Spend limits. `per_user_usd_per_day`: USD a user (the `userId` of a call) may spend per UTC
   * day, kept in the memory backend; a call past it answers 429 with `Retry-After`. `null`: no
   * limit. From the environment: `TOOLKIT_LLM_BUDGET` as JSON. @default { per_user_usd_per_day: null }
   */
  budget: { per_user_usd_per_day: number | null };
}

/** `telemetry.*`: what the app tells about itself. */
export interface TelemetrySettings {
  /**
   * Serve Prometheus metrics at `GET /metrics` on the app's port (`TOOLKIT_TELEMETRY_METRICS`).
   * Off: no route, and nothing is measured. @default false
   */
  metrics: boolean;
  /**
   * When set, `GET /metrics` answers 401 unless the request carries `Authorization: Bearer <token>`
   * (`TOOLKIT_TELEMETRY_METRICS_TOKEN`; Prometheus: `authorization: { credentials: <token> }`).
   * `""`: no token asked. @default ""
   */
  metrics_token: string;
  /**
   * Also count LLM cost by user: `toolkit_llm_user_cost_usd_total{user_id}`, for calls given a
   * `userId` (`TOOLKIT_TELEMETRY_METRICS_COST_BY_USER`). Off by default: a label per user makes a
   * series per user. At most 1,000 user ids get a series of their own; later ones count under
   * `user_id="_other"`. @default false
   */
  metrics_cost_by_user: boolean;
  /**
   * Export OpenTelemetry traces over OTLP/HTTP (`TOOLKIT_TELEMETRY_ENABLED`): an HTTP server span
   * per request, with spans of LLM calls, tool executions, embeddings, memory, cache and retrieval
   * under it. Setting `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
   * turns tracing on too; `OTEL_SDK_DISABLED=true` turns it off whatever is set here. The
   * exporter reads the other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout, protocol:
   * `http/protobuf` or `http/json`). Needs the optional peers `@opentelemetry/api`,
   * `@opentelemetry/sdk-trace-node`, `@opentelemetry/resources` and
   * `@opentelemetry/exporter-trace-otlp-proto` (or `-http` for `http/json`);
   * `@opentelemetry/instrumentation-http`, when installed, makes the HTTP server span. Off, none
   * of them is loaded. @default false
   */
  enabled: boolean;
  /**
   * Let spans carry message content: prompts, answers, tool arguments and results
   * (`TOOLKIT_TELEMETRY_RECORD_CONTENT`). Off, spans hold sizes, names and token counts only.
   * @default false
   */
  record_content: boolean;
  /**
   * The `service.name` of the app's spans (`TOOLKIT_TELEMETRY_SERVICE_NAME`). `""`:
   * `OTEL_SERVICE_NAME`, else the `name` in the `package.json` of the working directory, else
   * "toolkit-app". @default ""
   */
  service_name: string;
  /**
   * Make the HTTP server span with OpenTelemetry's HTTP instrumentation
   * (`@opentelemetry/instrumentation-http`) when it is installed and toolkit builds the tracer
   * provider (`TOOLKIT_TELEMETRY_HTTP_INSTRUMENTATION`). `false`: toolkit makes the span itself,
   * with the same name, route, status, request id and `traceparent` continuation, at less CPU per
   * request, without the instrumentation's other attributes (client address, user agent, sizes).
   * @default true
   */
  http_instrumentation: boolean;
}

/**
 * The whole resolved configuration: defaults, then `toolkit.yaml`, then the environment.
 * Injectable with `@Inject(TOOLKIT_CONFIG)`.
 *
 * @example
 * @Injectable()
 * class Greeter {
 *   constructor(@Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig) {}
 *   greeting = () => `Hello from ${this.config.app.name}`;
 * }
 */
export interface ToolkitConfig {
  /** `app.*`: name, debug mode, body and upload limits, SSE heartbeat, shutdown grace. */
  app: AppSettings;
  /** `llm.*`: the injected `LLM`'s model and call settings. */
  llm: LlmSettings;
  /** `cache.*`: the `@Cache` backend and its defaults. */
  cache: CacheSettings;
  /** `memory.*`: the conversation memory backend. */
  memory: MemorySettings;
  /** `rag.*`: the document index `RagModule` opens (embedder, store, chunking, relevance floor). */
  rag: RagSettings;
  /** `limits.*`: rate limits of `@RateLimit()` routes and caps on resumable streams per client. */
  limits: LimitsSettings;
  /** `telemetry.*`: Prometheus metrics at `GET /metrics` and OpenTelemetry traces. */
  telemetry: TelemetrySettings;
  /** `mcp.*`: MCP servers whose tools the app uses (`ToolRegistry`), and their limits. */
  mcp: McpSettings;
  /** Sections toolkit does not know (e.g. a template's `styles:`), kept as parsed. */
  extra: Record<string, unknown>;
}

/** A partial configuration, as given to `new App({ config })` or `ToolkitModule.forRoot()`. */
export type ToolkitConfigInput = {
  [S in Exclude<keyof ToolkitConfig, 'extra'>]?: Partial<ToolkitConfig[S]>;
} & Record<string, unknown>;
