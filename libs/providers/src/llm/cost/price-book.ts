import { ConfigError } from '../../errors/config.error.js';
import type { TokenUsage } from '../provider/language-model.interface.js';
import type { ModelPrice } from './model-price.js';
import { PRICE_TABLE } from './price.table.js';

/** Checks `llm.prices` (name or prefix → `{ input, output }` USD per 1M tokens). */
export function checkPrices(
  value: unknown,
  key: string,
  source: string,
): Record<string, ModelPrice> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(
      key,
      'must map model names to { input, output } USD per 1M tokens',
      source,
    );
  }
  // A Map, so that a model named "__proto__" is an entry like any other.
  const prices = new Map<string, ModelPrice>();
  for (const [model, price] of Object.entries(value as Record<string, unknown>)) {
    const p = price as { input?: unknown; output?: unknown } | null;
    for (const side of ['input', 'output'] as const) {
      const n = typeof p === 'object' && p !== null ? p[side] : undefined;
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
        throw new ConfigError(
          `${key}.${model}.${side}`,
          `must be a non-negative number of USD per 1M tokens (got ${JSON.stringify(n ?? null)})`,
          source,
        );
      }
    }
    prices.set(model, { input: (p as ModelPrice).input, output: (p as ModelPrice).output });
  }
  return Object.fromEntries(prices);
}

/**
 * Prices of models: the built-in table with overrides on top. A model's price is the entry
 * whose key is the longest prefix of `provider/model` or of the bare model name (an override
 * wins a tie).
 */
export class PriceBook {
  private readonly entries: [string, ModelPrice][];

  constructor(overrides: Readonly<Record<string, ModelPrice>> = {}) {
    const merged = new Map<string, ModelPrice>(Object.entries(PRICE_TABLE));
    for (const [k, v] of Object.entries(overrides)) merged.set(k.toLowerCase(), v);
    this.entries = [...merged].sort((a, b) => b[0].length - a[0].length);
  }

  /** The price of `model` (served by `provider`), when known. */
  priceOf(provider: string, model: string): ModelPrice | undefined {
    const names = [`${provider}/${model}`.toLowerCase(), model.toLowerCase()];
    for (const [key, price] of this.entries) {
      if (names.some((n) => n.startsWith(key))) return price;
    }
    return undefined;
  }

  /** What `usage` cost in USD, when the model's price is known. */
  costOf(provider: string, model: string, usage: TokenUsage): number | undefined {
    const price = this.priceOf(provider, model);
    if (!price) return undefined;
    const usd = (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6;
    return Math.round(usd * 1e9) / 1e9;
  }
}
