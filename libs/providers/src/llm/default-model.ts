/** What `llm.default_model: auto` resolves to, and why. */
export interface DefaultModelChoice {
  /** The model name the injected `LLM` uses. */
  model: string;
  /** True when it is the offline `echo` model because no provider key is set. */
  offline: boolean;
  /** One line for the dev banner, e.g. `gpt-4o-mini (openai, OPENAI_API_KEY set)`. */
  reason: string;
}

/** Providers tried by `auto`, in order: the key variable and the model used when it is set. */
const AUTO_ORDER: ReadonlyArray<{ provider: string; keyVar: string; model: string }> = [
  { provider: 'openai', keyVar: 'OPENAI_API_KEY', model: 'gpt-4o-mini' },
  { provider: 'anthropic', keyVar: 'ANTHROPIC_API_KEY', model: 'claude-3-5-haiku-latest' },
  { provider: 'gemini', keyVar: 'GEMINI_API_KEY', model: 'gemini-2.0-flash' },
  { provider: 'mistral', keyVar: 'MISTRAL_API_KEY', model: 'mistral-small-latest' },
  { provider: 'deepseek', keyVar: 'DEEPSEEK_API_KEY', model: 'deepseek-chat' },
  { provider: 'grok', keyVar: 'XAI_API_KEY', model: 'grok-2-latest' },
];

const PLACEHOLDER = /^(<.*>|your[-_ ].*|x+|changeme|sk-\.\.\.|\s*)$/i;

/** True when an API key variable holds a real-looking value (placeholders count as unset). */
export function isKeySet(value: string | undefined): value is string {
  return value !== undefined && !PLACEHOLDER.test(value.trim());
}

/**
 * Resolves a configured default model. A concrete name is returned as is; `auto` picks the first
 * provider whose key is set, and the offline `echo` model when none is.
 */
export function resolveDefaultModel(configured: string, env: NodeJS.ProcessEnv = process.env): DefaultModelChoice {
  if (configured !== 'auto') {
    return { model: configured, offline: configured === 'echo', reason: 'from llm.default_model' };
  }
  for (const candidate of AUTO_ORDER) {
    if (isKeySet(env[candidate.keyVar])) {
      return { model: candidate.model, offline: false, reason: `${candidate.provider}, ${candidate.keyVar} set` };
    }
  }
  const vars = AUTO_ORDER.map((c) => c.keyVar).join(', ');
  return { model: 'echo', offline: true, reason: `offline: no provider key set (${vars})` };
}
