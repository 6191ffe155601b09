import type { ToolkitConfig } from './toolkit-config.interface.js';

/** How one configuration key is checked. */
export interface KeySpec {
  /** `duration`: seconds, as a number (`90`, `0.5`) or a string with a unit (`"500ms"`, `"30s"`, `"30m"`, `"24h"`, `"7d"`). */
  kind:
    | 'string'
    | 'boolean'
    | 'integer'
    | 'number'
    | 'bytes'
    | 'duration'
    | 'prices'
    | 'budget'
    | 'mcp_servers';
  /** `null` only for a key that may be unset (`nullable`). */
  default: string | number | boolean | null | Readonly<Record<string, unknown>>;
  /** Allowed values for an enumerated string key. */
  choices?: readonly string[];
  /** A string key's form, and how to say it when a value does not match. */
  pattern?: { regex: RegExp; says: string };
  /** The key may be `null` (YAML `null` or `~`, an empty environment variable): unset. */
  nullable?: boolean;
  min?: number;
  max?: number;
}

const NON_EMPTY = { regex: /\S/, says: 'a non-empty string' };

type Schema = {
  [S in Exclude<keyof ToolkitConfig, 'extra'>]: { [K in keyof ToolkitConfig[S]]-?: KeySpec };
};

/**
 * Every key toolkit reads, with its type and default. Validation, environment overrides
 * (`TOOLKIT_<SECTION>_<KEY>`) and the documented defaults all come from this one table.
 */
export const CONFIG_SCHEMA: Schema = {
  app: {
    name: { kind: 'string', default: 'toolkit-app' },
    debug: { kind: 'boolean', default: false },
    body_limit: { kind: 'bytes', default: 1024 * 1024, min: 1 },
    upload_limit: { kind: 'bytes', default: 20 * 1024 * 1024, min: 1 },
    sse_heartbeat: { kind: 'number', default: 15, min: 0 },
    shutdown_grace: { kind: 'number', default: 5, min: 0 },
    session_secret: { kind: 'string', default: '' },
    trust_proxy: { kind: 'boolean', default: false },
    access_log: { kind: 'boolean', default: false },
    log_format: { kind: 'string', default: 'text', choices: ['text', 'json'] },
    platform: { kind: 'string', default: 'express', choices: ['express', 'fastify'] },
    headers_timeout: { kind: 'duration', default: 20, min: 0, max: 3600 },
    request_timeout: { kind: 'duration', default: 60, min: 0, max: 86_400 },
    keep_alive_timeout: { kind: 'duration', default: 5, min: 0, max: 3600 },
    max_connections: { kind: 'integer', default: 10_000, min: 0 },
    max_connections_per_address: { kind: 'integer', default: 256, min: 0 },
  },
  llm: {
    default_provider: { kind: 'string', default: 'auto' },
    default_model: { kind: 'string', default: 'auto' },
    temperature: { kind: 'number', default: 0.7, min: 0, max: 2 },
    max_tokens: { kind: 'integer', default: 1024, min: 1 },
    timeout: { kind: 'number', default: 60, min: 0.001 },
    max_retries: { kind: 'integer', default: 2, min: 0, max: 10 },
    echo_delay_ms: { kind: 'integer', default: 0, min: 0, max: 5000 },
    prices: { kind: 'prices', default: {} },
    budget: { kind: 'budget', default: { per_user_usd_per_day: null } },
  },
  cache: {
    enabled: { kind: 'boolean', default: true },
    backend: { kind: 'string', default: 'memory', choices: ['memory', 'redis'] },
    ttl: { kind: 'integer', default: 300, min: 0 },
    redis_url: { kind: 'string', default: 'redis://127.0.0.1:6379' },
    max_entries: { kind: 'integer', default: 1000, min: 1 },
    key_prefix: { kind: 'string', default: 'toolkit:cache:' },
    lock_ttl: { kind: 'duration', default: 10, min: 0.1 },
    timeout: { kind: 'duration', default: 2, min: 0.001, max: 3600 },
  },
  memory: {
    backend: { kind: 'string', default: 'memory', choices: ['memory', 'redis', 'postgres'] },
    max_history: { kind: 'integer', default: 100, min: 1 },
    redis_url: { kind: 'string', default: 'redis://127.0.0.1:6379' },
    postgres_url: { kind: 'string', default: 'postgres://127.0.0.1:5432/postgres' },
    key_prefix: { kind: 'string', default: 'toolkit' },
    max_conversations: { kind: 'integer', default: 10_000, min: 1 },
    ttl: { kind: 'duration', default: 86_400, min: 0 },
    timeout: { kind: 'duration', default: 2, min: 0.001, max: 3600 },
  },
  rag: {
    embeddings: { kind: 'string', default: 'auto', pattern: NON_EMPTY },
    embedding_dimensions: { kind: 'integer', default: null, nullable: true, min: 1, max: 65_536 },
    store: { kind: 'string', default: 'local', choices: ['local', 'pgvector'] },
    index: { kind: 'string', default: 'auto', choices: ['auto', 'exact', 'ivf'] },
    postgres_url: { kind: 'string', default: 'postgres://127.0.0.1:5432/postgres' },
    postgres_table: {
      kind: 'string',
      default: 'toolkit_rag',
      pattern: { regex: /^[a-z_][a-z0-9_]{0,40}$/, says: 'lower-case letters, digits and _' },
    },
    chunk_size: { kind: 'integer', default: 1000, min: 50, max: 100_000 },
    chunk_overlap: { kind: 'integer', default: 150, min: 0 },
    max_top_k: { kind: 'integer', default: 20, min: 1, max: 1000 },
    min_keyword_coverage: { kind: 'number', default: 0.15, min: 0, max: 1 },
    min_similarity: { kind: 'number', default: null, nullable: true, min: 0, max: 1 },
    documents_dir: { kind: 'string', default: 'docs/documents', pattern: NON_EMPTY },
    index_dir: { kind: 'string', default: '.toolkit/index', pattern: NON_EMPTY },
    queue: {
      kind: 'string',
      default: '',
      pattern: { regex: /^[\w.-]*$/, says: 'letters, digits, ".", "_" or "-"' },
    },
    ingest_timeout: { kind: 'duration', default: 60, min: 0.001, max: 86_400 },
    ingest_memory: { kind: 'bytes', default: 512 * 1024 * 1024, min: 16 * 1024 * 1024 },
    ingest_workers: { kind: 'integer', default: 1, min: 1, max: 64 },
    ingest_max_inflated: { kind: 'bytes', default: 64 * 1024 * 1024, min: 1024 * 1024 },
  },
  limits: {
    session_requests: { kind: 'integer', default: 20, min: 0 },
    address_requests: { kind: 'integer', default: 60, min: 0 },
    window: { kind: 'duration', default: 60, min: 0.001, max: 86_400 },
    streams_per_session: { kind: 'integer', default: 3, min: 0 },
    streams_per_address: { kind: 'integer', default: 20, min: 0 },
    detached_per_session: { kind: 'integer', default: 1, min: 0 },
    detached_grace: { kind: 'duration', default: 30, min: 0, max: 86_400 },
  },
  telemetry: {
    metrics: { kind: 'boolean', default: false },
    metrics_token: { kind: 'string', default: '' },
    metrics_cost_by_user: { kind: 'boolean', default: false },
    enabled: { kind: 'boolean', default: false },
    record_content: { kind: 'boolean', default: false },
    service_name: { kind: 'string', default: '' },
    http_instrumentation: { kind: 'boolean', default: true },
  },
  mcp: {
    servers: { kind: 'mcp_servers', default: {} },
    timeout: { kind: 'duration', default: 30, min: 0.001, max: 3600 },
    max_result_size: { kind: 'bytes', default: 1024 * 1024, min: 1 },
  },
};
