import type { UsageReport } from './chat-model.interface.js';
import type { ModelPrice } from './cost/model-price.js';
import type { MemoryStore } from '../memory/memory-store.interface.js';

/**
 * Options of `new LLM(model, options)`. Defaults match `toolkit.yaml`'s `llm.*` defaults;
 * `LLM.fromConfig()` fills them from the configuration.
 */
export interface LlmOptions {
  /** Sampling temperature, 0 to 2. @default 0.7 */
  temperature?: number;
  /** Most tokens generated per call. @default 1024 */
  maxTokens?: number;
  /**
   * API key; applies to models of the first model's provider. Placeholders count as unset.
   * @default the provider's variable, e.g. `OPENAI_API_KEY`
   */
  apiKey?: string;
  /**
   * Base URL (a proxy, a gateway, a local fake); applies to models of the first model's provider.
   * @default the provider's variable (`OPENAI_BASE_URL`, `OLLAMA_BASE_URL`, …), then its public URL
   */
  baseURL?: string;
  /** Per-attempt timeout in ms; also the longest silence tolerated inside a stream. @default 60000 */
  timeoutMs?: number;
  /** Retries the provider SDK makes on 429/5xx/timeouts, with exponential backoff. @default 2 */
  maxRetries?: number;
  /**
   * Longest `Retry-After` the SDK waits out before retrying the same model; a longer one fails
   * at once (falling over to the next model, or answering 429 with `Retry-After`).
   * @default 2000
   */
  maxRetryAfterMs?: number;
  /** Environment read for keys and base URLs. @default process.env */
  env?: Record<string, string | undefined>;
  /** Provider for names no rule recognises (`llm.default_provider`). @default "auto" (an error) */
  defaultProvider?: string;
  /**
   * Model `embed()` uses, e.g. `text-embedding-3-large` or `ollama/nomic-embed-text`.
   * @default the first model's provider's embedding model (`text-embedding-3-small` for OpenAI)
   */
  embeddingModel?: string;
  /** Most texts sent in one embeddings request. @default 128 */
  embedBatchSize?: number;
  /** Extra HTTP headers sent with every provider request. @default {} */
  headers?: Record<string, string>;
  /** Called with the token usage of every finished call, after the per-call `onUsage`. */
  onUsage?: (usage: UsageReport) => void;
  /** Pause between words the offline `echo` model streams. @default 0 */
  echoDelayMs?: number;
  /**
   * Prices (USD per 1M input/output tokens) by model name or name prefix, over the built-in
   * table; usage reports carry `costUsd` when the model's price is known.
   * @default {}
   */
  prices?: Record<string, ModelPrice>;
  /**
   * Per-user daily spend limit, kept in a memory store (shared by every process on Redis or
   * PostgreSQL); applies to calls given a `userId`.
   */
  budget?: { perUserUsdPerDay: number; store: MemoryStore };
  /** Folder of `*.hbs` prompt files read by `llm.prompt()`. @default "<cwd>/prompts" */
  promptsDir?: string;
}

/** One entry of a fallback list: a model name, or a name with its own key and base URL. */
export type ModelSpec = string | { model: string; apiKey?: string; baseURL?: string };
