import type { ProviderName } from './providers.table.js';

/** One row of the model-name detection table. */
export interface ModelRule {
  /** Glob shown to users and matched case-insensitively; `*` stands for any characters. */
  readonly pattern: string;
  /** Provider the names matching `pattern` belong to. */
  readonly provider: ProviderName;
  /**
   * Reasoning models (o-series, gpt-5) accept only their default temperature, so none is sent.
   * @default false
   */
  readonly reasoning?: boolean;
}

/**
 * Model-name detection, first match wins. Names of the form `provider/model` are matched
 * before this table (an explicit provider always wins), so `ollama/<model>` needs no row here.
 */
export const MODEL_RULES: readonly ModelRule[] = [
  { pattern: 'echo', provider: 'echo' },
  { pattern: 'gpt-5*', provider: 'openai', reasoning: true },
  { pattern: 'gpt-*', provider: 'openai' },
  { pattern: 'o1*', provider: 'openai', reasoning: true },
  { pattern: 'o3*', provider: 'openai', reasoning: true },
  { pattern: 'o4*', provider: 'openai', reasoning: true },
  { pattern: 'chatgpt-*', provider: 'openai' },
  { pattern: 'text-embedding-*', provider: 'openai' },
  { pattern: 'claude-*', provider: 'anthropic' },
  { pattern: 'gemini-*', provider: 'gemini' },
  { pattern: 'mistral-*', provider: 'mistral' },
  { pattern: 'open-mistral-*', provider: 'mistral' },
  { pattern: 'codestral-*', provider: 'mistral' },
  { pattern: 'ministral-*', provider: 'mistral' },
  { pattern: 'deepseek-*', provider: 'deepseek' },
  { pattern: 'grok-*', provider: 'grok' },
];

const compiled = new Map<string, RegExp>();

/** True when `name` matches the rule's glob (case-insensitive). */
export function ruleMatches(rule: ModelRule, name: string): boolean {
  let re = compiled.get(rule.pattern);
  if (!re) {
    const body = rule.pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    re = new RegExp(`^${body}$`, 'i');
    compiled.set(rule.pattern, re);
  }
  return re.test(name);
}

/** The literal start of a rule's glob (`gpt-*` → `gpt-`), used for suggestions. */
export function rulePrefix(rule: ModelRule): string {
  const star = rule.pattern.indexOf('*');
  return star === -1 ? rule.pattern : rule.pattern.slice(0, star);
}
