export { LLM } from './llm.js';
export type { GenerateResponse } from './llm.js';
export type { LlmOptions, ModelSpec } from './llm-options.interface.js';
export type { LlmSettingsInput } from './llm-settings.js';
export type {
  CallOptions,
  ChatInput,
  ChatModel,
  ChatOptions,
  HistoryMessage,
  StreamingChatOptions,
  TextChatOptions,
  UsageReport,
} from './chat-model.interface.js';
export type { FinishReason, TokenUsage } from './provider/language-model.interface.js';
export {
  LlmError,
  UnknownModelError,
  MissingApiKeyError,
  ProviderAuthError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderError,
  LlmAbortedError,
  EmbeddingsNotSupportedError,
} from './llm.errors.js';
export type { LlmErrorContext } from './llm.errors.js';
export { resolveModel, recognisedPatterns } from './resolution/resolve-model.js';
export type { ModelResolution, ResolveModelOptions } from './resolution/resolve-model.js';
export { PROVIDERS } from './resolution/providers.table.js';
export type { ProviderApi, ProviderInfo, ProviderName } from './resolution/providers.table.js';
export { MODEL_RULES } from './resolution/model-rules.table.js';
export type { ModelRule } from './resolution/model-rules.table.js';
export { resolveDefaultModel, isKeySet } from './default-model.js';
export type { DefaultModelChoice } from './default-model.js';
export { hashedEmbedding } from './echo/hashed-embedding.js';
export { echoReply } from './echo/echo-reply.js';
