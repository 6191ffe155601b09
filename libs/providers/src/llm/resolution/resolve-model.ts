import { resolveDefaultModel } from '../default-model.js';
import { UnknownModelError } from '../llm.errors.js';
import { closestPrefix } from './closest-prefix.js';
import { MODEL_RULES, ruleMatches, rulePrefix } from './model-rules.table.js';
import { PROVIDERS, findProvider } from './providers.table.js';
import type { ProviderApi, ProviderInfo, ProviderName } from './providers.table.js';

/** What a model name resolves to, and why: the answer of `LLM.resolve()`. */
export interface ModelResolution {
  /** The name as given, e.g. `ollama/llama3`. */
  name: string;
  /** Provider identifier, e.g. `ollama`. */
  provider: ProviderName;
  /** Human provider name, e.g. `Ollama`. */
  label: string;
  /** Wire protocol and SDK used. */
  api: ProviderApi;
  /** Model name sent to the provider (an explicit `provider/` prefix removed), e.g. `llama3`. */
  model: string;
  /** The rule that matched: a glob such as `gpt-*`, `ollama/<model>`, or `llm.default_provider`. */
  rule: string;
  /** Variable the key is read from; `null` when the provider needs none. */
  keyVar: string | null;
  /** Base URL calls go to (the provider's variable applied); `null` for the offline model. */
  baseURL: string | null;
  /** Variable that overrides the base URL; `null` when there is none. */
  baseURLVar: string | null;
  /** Reasoning model: no temperature is sent. */
  reasoning: boolean;
}

/** Options of `LLM.resolve()`. */
export interface ResolveModelOptions {
  /** Environment read for base-URL variables. @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Provider used for names no rule recognises (`llm.default_provider`); `auto` or unset means
   * such names are an error. @default undefined
   */
  defaultProvider?: string;
}

/** Every pattern the table recognises, for error messages and docs. */
export function recognisedPatterns(): string[] {
  const explicit = PROVIDERS.filter((p) => p.api !== 'echo').map((p) => `${p.name}/<model>`);
  return [...MODEL_RULES.map((r) => r.pattern), ...explicit];
}

function knownPrefixes(): string[] {
  const providerPrefixes = PROVIDERS.flatMap((p) => [p.name, ...p.aliases]).map((n) => `${n}/`);
  return [...MODEL_RULES.map(rulePrefix), ...providerPrefixes];
}

function build(
  name: string,
  info: ProviderInfo,
  model: string,
  rule: string,
  env: Record<string, string | undefined>,
): ModelResolution {
  const sameProviderRule = MODEL_RULES.find(
    (r) => r.provider === info.name && ruleMatches(r, model),
  );
  const fromEnv = info.baseURLVar ? env[info.baseURLVar]?.trim() : undefined;
  return {
    name,
    provider: info.name,
    label: info.label,
    api: info.api,
    model,
    rule,
    keyVar: info.keyVar,
    baseURL: fromEnv || info.defaultBaseURL,
    baseURLVar: info.baseURLVar,
    reasoning: sameProviderRule?.reasoning ?? false,
  };
}

/**
 * Resolves a model name with the detection table: an explicit `provider/model` first, then the
 * first matching glob, then `defaultProvider`. `auto` resolves the model `new LLM('auto')` would
 * use. Unknown names throw {@link UnknownModelError}.
 *
 * @example
 * resolveModel('ollama/llama3').baseURL; // 'http://127.0.0.1:11434/v1'
 */
export function resolveModel(name: string, options: ResolveModelOptions = {}): ModelResolution {
  const env = options.env ?? process.env;
  if (name.trim() === 'auto') {
    const preferred = options.defaultProvider;
    return resolveModel(resolveDefaultModel('auto', env, preferred).model, options);
  }
  const trimmed = name.trim();
  const fail = (reason?: string): never => {
    throw new UnknownModelError(
      name,
      recognisedPatterns(),
      closestPrefix(trimmed, knownPrefixes()),
      reason,
    );
  };
  if (trimmed === '') fail('the model name is empty');

  const slash = trimmed.indexOf('/');
  if (slash > 0) {
    const explicit = findProvider(trimmed.slice(0, slash));
    if (explicit) {
      const model = trimmed.slice(slash + 1).trim();
      if (model === '') fail(`nothing follows "${trimmed.slice(0, slash + 1)}"`);
      return build(trimmed, explicit, model, `${explicit.name}/<model>`, env);
    }
  }

  const rule = MODEL_RULES.find((r) => ruleMatches(r, trimmed));
  if (rule) return build(trimmed, findProvider(rule.provider)!, trimmed, rule.pattern, env);

  const fallback = options.defaultProvider;
  if (fallback && fallback !== 'auto') {
    const info = findProvider(fallback);
    if (info) return build(trimmed, info, trimmed, 'llm.default_provider', env);
    fail(
      `llm.default_provider "${fallback}" is not a provider (${PROVIDERS.map((p) => p.name).join(', ')})`,
    );
  }
  if (slash > 0) fail(`"${trimmed.slice(0, slash)}" is not a known provider`);
  return fail();
}
