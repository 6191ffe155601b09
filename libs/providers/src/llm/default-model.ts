import { PROVIDERS } from './resolution/providers.table.js';

/** What `llm.default_model: auto` resolves to, and why. */
export interface DefaultModelChoice {
  /** The model name the injected `LLM` uses. */
  model: string;
  /** True when it is the offline `echo` model because no provider key is set. */
  offline: boolean;
  /** One line for the dev banner, e.g. `gpt-4o-mini (openai, OPENAI_API_KEY set)`. */
  reason: string;
}

/** Providers `auto` tries, in table order: those with a key variable and an automatic model. */
const AUTO_ORDER = PROVIDERS.flatMap((p) =>
  p.keyVar && p.autoModel ? [{ provider: p.name, keyVar: p.keyVar, model: p.autoModel }] : [],
);

const PLACEHOLDER = /^(<.*>|your[-_ ].*|x+|changeme|sk-\.\.\.|\s*)$/i;

/**
 * True when an API key variable holds a real-looking value. Placeholders such as `<API_KEY>`,
 * `your-api-key-here`, `xxxx` or an empty string count as unset.
 *
 * @example
 * isKeySet('<API_KEY>'); // false
 */
export function isKeySet(value: string | undefined): value is string {
  return value !== undefined && !PLACEHOLDER.test(value.trim());
}

/**
 * Resolves a configured default model. A concrete name is returned as is; `auto` picks the
 * `preferredProvider` (`llm.default_provider`) when its key is set, else the first provider whose
 * key is set (OpenAI, Anthropic, Gemini, Mistral, DeepSeek, Grok) and the offline `echo` model
 * when none is.
 *
 * @example
 * resolveDefaultModel('auto', { ANTHROPIC_API_KEY: 'sk-ant-…' }).model; // 'claude-3-5-haiku-latest'
 * resolveDefaultModel('auto', bothKeys, 'anthropic').model; // 'claude-3-5-haiku-latest'
 */
export function resolveDefaultModel(
  configured: string,
  env: NodeJS.ProcessEnv = process.env,
  preferredProvider?: string,
): DefaultModelChoice {
  if (configured !== 'auto') {
    return { model: configured, offline: configured === 'echo', reason: 'from llm.default_model' };
  }
  const preferred = AUTO_ORDER.find((candidate) => candidate.provider === preferredProvider);
  if (preferred && isKeySet(env[preferred.keyVar])) {
    return {
      model: preferred.model,
      offline: false,
      reason: `${preferred.provider} from llm.default_provider, ${preferred.keyVar} set`,
    };
  }
  for (const candidate of AUTO_ORDER) {
    if (isKeySet(env[candidate.keyVar])) {
      return {
        model: candidate.model,
        offline: false,
        reason: `${candidate.provider}, ${candidate.keyVar} set`,
      };
    }
  }
  const vars = AUTO_ORDER.map((c) => c.keyVar).join(', ');
  return { model: 'echo', offline: true, reason: `offline: no provider key set (${vars})` };
}
