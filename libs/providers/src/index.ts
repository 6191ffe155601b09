// `toolkit/providers`: the framework-free building blocks (no Nest, no HTTP server): the options,
// results and errors of LLM calls, conversation-memory and response-cache backends, MCP server
// settings. RAG parts have their own entry point, `toolkit/rag`. Each name has one entry point:
// what handlers use (`LLM`, `defineTool`, `ConversationMemory`, `ToolkitError`,
// `ValidationError`, `ConfigError`) is imported from `toolkit`, as the SPEC's examples do. The
// list is pinned by test/api/entry-points.e2e-spec.ts.

// Errors: the kinds the building blocks raise (their base class, `ToolkitError`, is in `toolkit`).
export type { ToolkitErrorOptions } from './errors/toolkit.error.js';
export type { ParamProblem } from './errors/validation.error.js';
export { UnsupportedMediaTypeError } from './errors/unsupported-media-type.error.js';
export { ServiceUnavailableError } from './errors/service-unavailable.error.js';

// Language models: the options of `LLM` (in `toolkit`) and what its calls return.
export type { GenerateResponse } from './llm/llm.js';
export type { LlmOptions, ModelSpec } from './llm/llm-options.interface.js';
export type { LlmSettingsInput } from './llm/llm-settings.js';
export type {
  CallOptions,
  ChatInput,
  ChatModel,
  ChatOptions,
  StreamingChatOptions,
  TextChatOptions,
  UsageReport,
} from './llm/chat-model.interface.js';
export type { FinishReason, TokenUsage } from './llm/provider/language-model.interface.js';
export type { ModelResolution, ResolveModelOptions } from './llm/resolution/resolve-model.js';
export type { ProviderApi, ProviderName } from './llm/resolution/providers.table.js';
export { isKeySet } from './llm/default-model.js';

// LLM tools, typed stream events, structured output and prices.
export type { DefinedTool, ToolArgs, ToolDefinition } from './llm/tools/tool.js';
export type { FromJsonSchema } from './llm/tools/from-json-schema.js';
export type { SchemaInput } from './llm/tools/schema-validator.js';
export type { GenerateStep, ToolCallRecord } from './llm/tools/tool-call-record.js';
export type { LlmStreamEvent } from './llm/tools/llm-stream-event.js';
export type { ModelPrice } from './llm/cost/model-price.js';
export { PRICE_TABLE } from './llm/cost/price.table.js';
export type { SchemaOutput } from './llm/tools/tool.js';
export type {
  GenerateObjectOptions,
  GenerateObjectResponse,
  PartialObject,
} from './llm/structured/generate-object-options.js';
export { StructuredOutputError } from './llm/structured/structured-output.error.js';
export { parsePartialJson } from './llm/structured/partial-json.js';
export { PromptLibrary } from './llm/prompts/prompt-library.js';
export { PromptError } from './llm/prompts/prompt.error.js';
export { BudgetExceededError } from './llm/cost/budget-exceeded.error.js';
export { SpendLedger } from './llm/cost/spend-ledger.js';

// Tracing: where toolkit's spans go (OpenTelemetry when `telemetry` tracing is on).
export { installTracer } from './telemetry/tracing.js';
export { openTelemetryTracer } from './telemetry/open-telemetry.tracer.js';
export type {
  SpanAttributes,
  SpanAttributeValue,
  TraceSpan,
  TraceSpanKind,
  TraceSpanOptions,
  Tracer,
} from './telemetry/tracer.interface.js';

// Errors of LLM calls.
export {
  LlmError,
  UnknownModelError,
  MissingApiKeyError,
  MissingSdkError,
  ProviderAuthError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderError,
  LlmAbortedError,
  EmbeddingsNotSupportedError,
} from './llm/llm.errors.js';
export type { LlmErrorContext } from './llm/llm.errors.js';

// Conversation memory: the store contract, its backends, and per-user memory over a store.
export { MemoryStore } from './memory/memory-store.interface.js';
export type { MemoryBackend } from './memory/memory-store.interface.js';
export type { MemoryMessage, MemoryRole, ToolStep } from './memory/memory-message.js';
export { StoreConversationMemory } from './memory/conversation-memory.js';
export type {
  AddTurnOptions,
  ToDictListOptions,
  StoreConversationMemoryOptions,
} from './memory/conversation-memory.js';
export { InMemoryMemoryStore } from './memory/in-memory-memory.store.js';
export type { InMemoryMemoryStoreOptions } from './memory/in-memory-memory.store.js';
export { RedisMemoryStore } from './memory/redis-memory.store.js';
export type { RedisMemoryStoreOptions } from './memory/redis-memory.store.js';
export { PostgresMemoryStore } from './memory/postgres-memory.store.js';
export type { PostgresMemoryStoreOptions } from './memory/postgres-memory.store.js';
export { createMemoryStore } from './memory/memory-store.factory.js';
export type { MemoryStoreTuning } from './memory/memory-store.factory.js';
export type { MemorySettings } from './memory/memory-settings.js';
export { MemoryUnavailableError } from './memory/memory-unavailable.error.js';
export { InvalidMessageError } from './memory/invalid-message.error.js';

// Response cache: the store contract and its backends.
export { CacheStore } from './cache/cache-store.interface.js';
export type { CacheLock } from './cache/cache-lock.js';
export type { CacheBackend, WindowCount } from './cache/cache-store.interface.js';
export { MemoryCacheStore } from './cache/memory-cache.store.js';
export type { MemoryCacheStoreOptions } from './cache/memory-cache.store.js';
export { RedisCacheStore } from './cache/redis-cache.store.js';
export type { RedisCacheStoreOptions } from './cache/redis-cache.store.js';
export { createCacheStore } from './cache/cache-store.factory.js';
export type { CacheSettings } from './cache/cache-settings.js';
export { CacheUnavailableError } from './cache/cache-unavailable.error.js';

// Redis connection tuning, shared by the Redis memory and cache stores.
export type { RedisConnectionOptions } from './backends/redis-connection.js';

// MCP client: the tools of Model Context Protocol servers (stdio or Streamable HTTP) as toolkit tools.
export { connectMcpServers } from './mcp/mcp-toolset.js';
export type { McpToolset, McpToolsetOptions } from './mcp/mcp-toolset.js';
export type {
  McpHttpServer,
  McpServerConfig,
  McpServers,
  McpStdioServer,
} from './mcp/mcp-server-config.js';
export type { McpServerState, McpServerStatus } from './mcp/mcp-server-status.js';
export { McpError } from './mcp/mcp.error.js';
