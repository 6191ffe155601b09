/** Every provider toolkit can talk to. */
export type ProviderName =
  'openai' | 'anthropic' | 'gemini' | 'mistral' | 'deepseek' | 'grok' | 'ollama' | 'echo';

/** Which wire protocol (and SDK) a provider speaks. */
export type ProviderApi = 'openai' | 'anthropic' | 'echo';

/** One row of the provider table: how to reach a provider and what it needs. */
export interface ProviderInfo {
  /** Identifier used in `provider/model` names and in `llm.default_provider`. */
  readonly name: ProviderName;
  /** Human name for messages, e.g. `OpenAI`. */
  readonly label: string;
  /** Wire protocol; OpenAI-compatible families go through the `openai` SDK. */
  readonly api: ProviderApi;
  /** Other spellings accepted before the `/` of an explicit `provider/model` name. */
  readonly aliases: readonly string[];
  /** Environment variable holding the API key; `null` when none is needed. */
  readonly keyVar: string | null;
  /** Environment variable that overrides the base URL; `null` when there is no URL. */
  readonly baseURLVar: string | null;
  /** Base URL used when neither the option nor the variable is set. */
  readonly defaultBaseURL: string | null;
  /** Model `llm.default_model: auto` picks when this provider's key is set. */
  readonly autoModel?: string;
  /** Model `embed()` uses for this provider; absent when the provider has no embeddings API. */
  readonly embeddingModel?: string;
  /** Whether the generation limit is sent as `max_completion_tokens` (OpenAI) or `max_tokens`. */
  readonly tokenLimitParam: 'max_tokens' | 'max_completion_tokens';
  /** Whether streamed calls ask for a usage chunk with `stream_options.include_usage`. */
  readonly streamUsage: boolean;
}

/**
 * The provider table, in the order `llm.default_model: auto` tries them. Keep it a table:
 * detection, the CLI banner and error messages all read from it.
 */
export const PROVIDERS: readonly ProviderInfo[] = [
  {
    name: 'openai',
    label: 'OpenAI',
    api: 'openai',
    aliases: [],
    keyVar: 'OPENAI_API_KEY',
    baseURLVar: 'OPENAI_BASE_URL',
    defaultBaseURL: 'https://api.openai.com/v1',
    autoModel: 'gpt-4o-mini',
    embeddingModel: 'text-embedding-3-small',
    tokenLimitParam: 'max_completion_tokens',
    streamUsage: true,
  },
  {
    name: 'anthropic',
    label: 'Anthropic',
    api: 'anthropic',
    aliases: ['claude'],
    keyVar: 'ANTHROPIC_API_KEY',
    baseURLVar: 'ANTHROPIC_BASE_URL',
    defaultBaseURL: 'https://api.anthropic.com',
    autoModel: 'claude-3-5-haiku-latest',
    tokenLimitParam: 'max_tokens',
    streamUsage: true,
  },
  {
    name: 'gemini',
    label: 'Google Gemini',
    api: 'openai',
    aliases: ['google'],
    keyVar: 'GEMINI_API_KEY',
    baseURLVar: 'GEMINI_BASE_URL',
    defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    autoModel: 'gemini-2.0-flash',
    embeddingModel: 'gemini-embedding-001',
    tokenLimitParam: 'max_tokens',
    streamUsage: true,
  },
  {
    name: 'mistral',
    label: 'Mistral',
    api: 'openai',
    aliases: ['mistralai'],
    keyVar: 'MISTRAL_API_KEY',
    baseURLVar: 'MISTRAL_BASE_URL',
    defaultBaseURL: 'https://api.mistral.ai/v1',
    autoModel: 'mistral-small-latest',
    embeddingModel: 'mistral-embed',
    tokenLimitParam: 'max_tokens',
    // Mistral sends usage in its last chunk unasked and rejects unknown parameters.
    streamUsage: false,
  },
  {
    name: 'deepseek',
    label: 'DeepSeek',
    api: 'openai',
    aliases: [],
    keyVar: 'DEEPSEEK_API_KEY',
    baseURLVar: 'DEEPSEEK_BASE_URL',
    defaultBaseURL: 'https://api.deepseek.com/v1',
    autoModel: 'deepseek-chat',
    tokenLimitParam: 'max_tokens',
    streamUsage: true,
  },
  {
    name: 'grok',
    label: 'xAI Grok',
    api: 'openai',
    aliases: ['xai'],
    keyVar: 'XAI_API_KEY',
    baseURLVar: 'XAI_BASE_URL',
    defaultBaseURL: 'https://api.x.ai/v1',
    autoModel: 'grok-2-latest',
    tokenLimitParam: 'max_tokens',
    streamUsage: true,
  },
  {
    name: 'ollama',
    label: 'Ollama',
    api: 'openai',
    aliases: [],
    keyVar: null,
    baseURLVar: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:11434/v1',
    embeddingModel: 'nomic-embed-text',
    tokenLimitParam: 'max_tokens',
    streamUsage: true,
  },
  {
    name: 'echo',
    label: 'echo (offline)',
    api: 'echo',
    aliases: [],
    keyVar: null,
    baseURLVar: null,
    defaultBaseURL: null,
    embeddingModel: 'echo-hash',
    tokenLimitParam: 'max_tokens',
    streamUsage: true,
  },
];

/** The table row of a provider name or alias (case-insensitive), if any. */
export function findProvider(nameOrAlias: string): ProviderInfo | undefined {
  const wanted = nameOrAlias.toLowerCase();
  return PROVIDERS.find((p) => p.name === wanted || p.aliases.includes(wanted));
}

/** The table row of a known provider name. */
export function providerInfo(name: ProviderName): ProviderInfo {
  const info = findProvider(name);
  if (!info) throw new Error(`Provider table has no row for ${name}`);
  return info;
}
