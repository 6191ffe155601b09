import { resolveDefaultModel } from './default-model.js';
import type { LlmOptions } from './llm-options.interface.js';
import type { ModelPrice } from './cost/model-price.js';
import type { MemoryStore } from '../memory/memory-store.interface.js';

/**
 * The `llm.*` section of `toolkit.yaml` as `LLM.fromConfig()` reads it (the framework's resolved
 * `LlmSettings` fits). Missing keys take the documented defaults.
 */
export interface LlmSettingsInput {
  /** Provider for names no rule recognises; `auto` means none. @default "auto" */
  default_provider?: string;
  /** Model name, or `auto` (first provider whose key is set, else `echo`). @default "auto" */
  default_model?: string;
  /** Sampling temperature, 0 to 2. @default 0.7 */
  temperature?: number;
  /** Upper bound on generated tokens per call. @default 1024 */
  max_tokens?: number;
  /** Seconds before a provider call is abandoned (504). @default 60 */
  timeout?: number;
  /** SDK retries on 429/5xx/timeouts. @default 2 */
  max_retries?: number;
  /** Pause in ms between the words the offline `echo` model streams. @default 0 */
  echo_delay_ms?: number;
  /** Prices (USD per 1M input/output tokens) by model name or prefix, over the built-in table. */
  prices?: Record<string, ModelPrice>;
  /** Spend limits; `per_user_usd_per_day` needs a memory store (see `LLM.fromConfig`). */
  budget?: { per_user_usd_per_day?: number | null };
}

/** Maps `llm.*` settings to the model name and `LlmOptions` of an `LLM`. */
export function llmOptionsFromSettings(
  settings: LlmSettingsInput,
  env: Record<string, string | undefined>,
  store?: MemoryStore,
): { model: string; options: LlmOptions } {
  const limit = settings.budget?.per_user_usd_per_day;
  const provider = settings.default_provider;
  const model = resolveDefaultModel(settings.default_model ?? 'auto', env, provider).model;
  return {
    model,
    options: {
      env,
      temperature: settings.temperature,
      maxTokens: settings.max_tokens,
      timeoutMs: settings.timeout === undefined ? undefined : Math.round(settings.timeout * 1000),
      maxRetries: settings.max_retries,
      echoDelayMs: settings.echo_delay_ms,
      defaultProvider: provider && provider !== 'auto' ? provider : undefined,
      prices: settings.prices,
      budget: store && typeof limit === 'number' ? { perUserUsdPerDay: limit, store } : undefined,
    },
  };
}
