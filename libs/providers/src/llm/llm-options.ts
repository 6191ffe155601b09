import { ConfigError } from '../errors/config.error.js';
import { ValidationError } from '../errors/validation.error.js';
import type { ParamProblem } from '../errors/validation.error.js';
import type { CallOptions, UsageReport } from './chat-model.interface.js';
import type { LlmOptions } from './llm-options.interface.js';
import { checkPrices } from './cost/price-book.js';
import type { ModelPrice } from './cost/model-price.js';
import type { MemoryStore } from '../memory/memory-store.interface.js';

function checkBudget(budget: LlmOptions['budget']): LlmOptions['budget'] {
  if (budget === undefined) return undefined;
  const limit = budget.perUserUsdPerDay as unknown;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) {
    throw new ConfigError(
      'budget.perUserUsdPerDay',
      `must be a non-negative number of USD (got ${JSON.stringify(limit)})`,
      'new LLM()',
    );
  }
  return budget;
}

/** `LlmOptions` with every default applied and checked. Internal. */
export interface ResolvedLlmOptions {
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  embedBatchSize: number;
  echoDelayMs: number;
  env: Record<string, string | undefined>;
  headers: Record<string, string>;
  apiKey?: string;
  baseURL?: string;
  defaultProvider?: string;
  embeddingModel?: string;
  onUsage?: (usage: UsageReport) => void;
  prices: Record<string, ModelPrice>;
  promptsDir?: string;
  budget?: { perUserUsdPerDay: number; store: MemoryStore };
}

/** Temperature and token limit of one call. */
export interface CallParams {
  temperature: number;
  maxTokens: number;
}

const DEFAULTS = {
  temperature: 0.7,
  maxTokens: 1024,
  timeoutMs: 60_000,
  maxRetries: 2,
  maxRetryAfterMs: 2_000,
  embedBatchSize: 128,
  echoDelayMs: 0,
};

/** Numeric options: [name, integer?, min, max]. */
const CHECKS: ReadonlyArray<[keyof typeof DEFAULTS, boolean, number, number]> = [
  ['temperature', false, 0, 2],
  ['maxTokens', true, 1, Infinity],
  ['timeoutMs', true, 1, Infinity],
  ['maxRetries', true, 0, Infinity],
  ['maxRetryAfterMs', false, 0, Infinity],
  ['embedBatchSize', true, 1, Infinity],
  ['echoDelayMs', false, 0, Infinity],
];

/** Applies the defaults and refuses bad values with one `ConfigError` naming each. */
export function resolveLlmOptions(options: LlmOptions): ResolvedLlmOptions {
  const numbers = { ...DEFAULTS };
  const problems: string[] = [];
  for (const [name, integer, min, max] of CHECKS) {
    const value = options[name] ?? DEFAULTS[name];
    numbers[name] = value;
    const bad = typeof value !== 'number' || !(value >= min && value <= max);
    if (bad || (integer && !Number.isInteger(value))) {
      const kind = integer ? 'an integer' : 'a number';
      const range = max === Infinity ? `>= ${min}` : `between ${min} and ${max}`;
      problems.push(`${name} must be ${kind} ${range} (got ${String(value)})`);
    }
  }
  if (problems.length > 0) throw new ConfigError('LLM options', problems.join('; '), 'new LLM()');
  return {
    ...numbers,
    env: options.env ?? process.env,
    headers: options.headers ?? {},
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    defaultProvider: options.defaultProvider,
    embeddingModel: options.embeddingModel,
    onUsage: options.onUsage,
    prices: options.prices === undefined ? {} : checkPrices(options.prices, 'prices', 'new LLM()'),
    promptsDir: options.promptsDir,
    budget: checkBudget(options.budget),
  };
}

/** One call's temperature and token limit (its overrides, else the LLM's); bad values → 422. */
export function callParams(options: CallOptions, defaults: CallParams): CallParams {
  const problems: ParamProblem[] = [];
  const temperature = options.temperature ?? defaults.temperature;
  const maxTokens = options.maxTokens ?? defaults.maxTokens;
  if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2)) {
    problems.push({ param: 'temperature', problem: 'must be a number between 0 and 2' });
  }
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    problems.push({ param: 'maxTokens', problem: 'must be a positive integer' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { temperature, maxTokens };
}
