// The internal door of libs/providers: the names this repository's other libraries (libs/framework,
// libs/rag, libs/testing) and the CLI (apps/cli) import from libs/providers that are not its public
// API (`src/index.ts`, the `toolkit/providers` entry point). Some are public through `toolkit`
// (`LLM`, `defineTool`, the errors handlers throw ...), whose barrel re-exports them from here. It
// is not an entry point of the package: package.json's `exports` does not list it, so applications
// cannot import it, and its names may change with any commit.
//
// Another library of this repository imports libs/providers through exactly two doors: `index.js`
// for public names and this file for the rest, never a deeper path (the `no-restricted-imports`
// block of eslint.config.js; see "Conventions" in CONTRIBUTING.md). A new cross-library need is a
// new name here, with an explicit `export { ... }` or `export type { ... }`, not a deep import.

export { backendAddress } from './backends/backend-address.js';
export { loadIoredis, loadPg } from './backends/backend-clients.js';
export { postgresFailure } from './backends/postgres-failure.js';
export { createPostgresPool } from './backends/postgres-pool.js';

export { cacheKey } from './cache/cache-key.js';
export type { HeaderValues } from './cache/cache-key.js';
export { CACHE_ATTRIBUTE, CACHE_SPAN, cacheSpanOptions } from './cache/cache-spans.js';
export { SingleFlight } from './cache/single-flight.js';

export { ConfigError } from './errors/config.error.js';
export { ToolkitError } from './errors/toolkit.error.js';
export { ValidationError } from './errors/validation.error.js';

export type { HistoryMessage } from './llm/chat-model.interface.js';
export { resolveDefaultModel } from './llm/default-model.js';
export { llmOptionsFromSettings } from './llm/llm-settings.js';
export { LLM } from './llm/llm.js';
export { errorMessage } from './llm/provider/abort.js';
export type { GenerateResult } from './llm/provider/language-model.interface.js';
export { missingSdk } from './llm/provider/sdk-packages.js';
export {
  EMBEDDING_DIMENSIONS,
  embeddingDimensions,
} from './llm/resolution/embedding-dimensions.table.js';
export { resolveModel } from './llm/resolution/resolve-model.js';
export { checkReply } from './llm/structured/object-reply.js';
export { compileSchema } from './llm/tools/schema-validator.js';
export { runToolLoop, toolSetOf } from './llm/tools/tool-loop.js';
export { compiledSchemaOf, defineTool } from './llm/tools/tool.js';
export type { ToolContext } from './llm/tools/tool.js';

export { isStdioServer } from './mcp/mcp-server-config.js';
export { parseMcpServers } from './mcp/parse-mcp-servers.js';

export { buildTurn } from './memory/conversation-memory.js';
export type { ConversationMemory } from './memory/conversation-memory.js';
export {
  assertValidMessage,
  assertValidUserId,
  copyMessage,
} from './memory/memory-message.validation.js';
export { jsonProblem } from './memory/plain-json.validation.js';
export { fitTokenBudget } from './memory/token-budget.js';

export { MemoryStreamLog } from './streams/memory-stream-log.js';
export { RedisStreamLog } from './streams/redis-stream-log.js';
export {
  STREAM_LOG_ATTRIBUTE,
  STREAM_LOG_SPAN,
  STREAM_LOG_SPAN_OPTIONS,
} from './streams/stream-log-spans.js';
export { StreamLog } from './streams/stream-log.interface.js';
export type { AppendOutcome, StreamLogEntry } from './streams/stream-log.interface.js';

export { lazyModule } from './support/lazy-module.js';

export { recordsContent, startSpan, traced } from './telemetry/tracing.js';
