// `toolkit`: everything an application imports, and nothing else. Helpers stay internal; the
// list is pinned by test/api/entry-points.e2e-spec.ts (snapshot: test/api/entry-points.json).
import 'reflect-metadata';

// One-file apps: `new App()`, `app.route(path, options, handler)`, `app.run()`.
export { App } from './app/app.js';
export type { AppOptions, RunOptions } from './app/app.js';
export type {
  FunctionalHandler,
  FunctionalRouteOptions,
  RouteContext,
} from './app/functional-route.js';

// Nest applications: the module that brings toolkit's providers and error bodies, and the body
// parsers that answer 400/413 the same way.
export { ToolkitModule } from './module/toolkit.module.js';
export { exceptionFilterFirst } from './module/exception-filter.provider.js';
export type {
  ToolkitModuleExtras,
  ToolkitModuleOptions,
} from './module/toolkit.module-definition.js';
export { installBodyParsers } from './http/body-parsers.js';
export { applyConnectionLimits, type ConnectionLimits } from './http/connection-limits.js';

// Request ids and logs: `X-Request-Id`, the id in every log line of a request, access lines.
export { ToolkitLogger } from './logging/toolkit-logger.js';
export { currentRequestId, recordRequestUsage } from './logging/request-context.js';
export { droppedSpanCount } from './telemetry/dropped-spans.js';
export { AccessLogRecord } from './logging/access-log-record.js';
export type { AccessLogFields } from './logging/access-log-record.js';

// Routes in controllers, and the parameter declarations `@Arg` and `app.route` share.
export { Route } from './routing/route.decorator.js';
export type { RouteOptions } from './routing/route.decorator.js';
export { Arg } from './routing/arg.decorator.js';
export type { HttpMethod } from './routing/http-method.js';
export type {
  ParamSpec,
  ParamType,
  ParamSource,
  ParamsDeclaration,
  ParamsOf,
} from './routing/param-spec.js';

// Server-Sent Events, and the request's AbortSignal (with the reasons it aborts for).
export { Stream } from './routing/stream.decorator.js';
export type { StreamOptions } from './sse/stream-options.js';
export type { UiMessageChunk, UiFinishReason } from './sse/ui-message/ui-message-chunk.js';
export {
  UI_MESSAGE_STREAM_HEADER,
  UI_MESSAGE_STREAM_VERSION,
} from './sse/ui-message/ui-message-chunk.js';
export { readUiChatRequest } from './sse/ui-message/ui-message-request.js';
export { assertUiChatHistory } from './sse/ui-message/ui-chat-history.js';
export type { ChatStreamResume } from './sse/ui-message/chat-stream-resume.js';
export type { UiChatRequest, UiChatRequestLimits } from './sse/ui-message/ui-message-request.js';
export { toUiMessages } from './sse/ui-message/to-ui-messages.js';
export type {
  UiMessage,
  UiMessagePart,
  UiStepStartPart,
  UiTextPart,
  UiToolPart,
} from './sse/ui-message/to-ui-messages.js';
export { ResumableStreams } from './sse/resumable-streams.js';
export { StreamCancelledError, StreamExpiredError } from './sse/resumable-stream.errors.js';
export { ResumableStreamsController } from './sse/resumable-streams.controller.js';
// The log resumable streams are kept in, injectable (and overridable in tests) like the stores.
export { StreamLog } from '../../providers/src/internal.js';
export type { AppendOutcome, StreamLogEntry } from '../../providers/src/internal.js';
export { StreamDetachedError, TooManyStreamsError } from './sse/stream-limit.errors.js';
export { RequestSignal } from './routing/request-signal.js';
export { ClientDisconnectedError, ServerShutdownError } from './routing/request-signal.errors.js';

// Who is talking: a server-issued session cookie, or the user an authentication guard set.
export { Session, SessionPipe } from './session/session.decorator.js';
export { SESSION_COOKIE } from './session/session-issuer.js';

// Language models: `new LLM(model)`, or the injected one. Its options, results and errors, the
// memory and cache stores and the other framework-free parts are in `toolkit/providers`.
export { LLM } from '../../providers/src/internal.js';
export type { HistoryMessage } from '../../providers/src/internal.js';

// `@Tool()` methods of injectable providers, collected by the injectable `ToolRegistry`.
export { Tool } from './tools/tool.decorator.js';
export type { ToolOptions } from './tools/tool.decorator.js';
export { ToolRegistry } from './tools/tool.registry.js';

// Tools of MCP servers (`mcp.servers`), connected at start-up; `ToolRegistry` includes them.
export { McpClient } from './mcp/client/mcp-client.js';
export type { McpSettings } from './mcp/client/mcp-settings.js';

// Serving the `@Tool()` methods to MCP clients over Streamable HTTP.
export { McpServerModule } from './mcp/server/mcp-server.module.js';
export type {
  McpServerModuleExtras,
  McpServerModuleOptions,
} from './mcp/server/mcp-server.module-definition.js';

// LLM tools defined by `defineTool` (their types, stream events, structured output and prices are
// in `toolkit/providers`).
export { defineTool } from '../../providers/src/internal.js';
export type { ToolContext } from '../../providers/src/internal.js';

// Conversation memory: `app.memory(userId)`, or the injected `MemoryService`.
export { MemoryService } from './memory/memory.service.js';
export { recordTurn } from './memory/record-turn.js';
export { toolStepsOf } from './memory/tool-step.collector.js';
export type { TurnOptions, TurnWriter } from './memory/record-turn.js';
export type { ConversationMemory } from '../../providers/src/internal.js';

// Response caching: `@Cache()` or `cache: { ttl }`, over the injectable store (`CacheStore`, in
// `toolkit/providers`).
export { Cache } from './cache/cache.decorator.js';
export type { CacheOptions } from './cache/cache.decorator.js';

// Rate limits per caller and per address (`@RateLimit()`), over counters shared through the cache.
export { RateLimit } from './rate-limit/rate-limit.decorator.js';
export type { RateLimitOptions } from './rate-limit/rate-limit.decorator.js';
export { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
export { RateLimiter } from './rate-limit/rate-limiter.js';
export type { RateTracker, HeaderSetter } from './rate-limit/rate-limiter.js';
export { RateCounter } from './rate-limit/rate-counter.js';
export { RateLimitExceededError } from './rate-limit/rate-limit-exceeded.error.js';
export { clientAddress } from './rate-limit/client-address.js';
export type { AddressedRequest } from './rate-limit/client-address.js';
export type { LimitsSettings } from './rate-limit/limits-settings.js';

// Multipart uploads.
export { readUploads } from './upload/read-uploads.js';
export type {
  UploadedFile,
  UploadedFileInfo,
  UploadLimits,
  UploadRequest,
} from './upload/read-uploads.js';

// Health and application info.
export { HealthController } from './health/health.controller.js';
export type { BackendReadiness, ReadinessReport } from './health/readiness.js';
export { APP_INFO } from './toolkit.constants.js';
export type { AppInfo } from './health/app-info.js';

// Configuration (`toolkit.yaml`, `.env`, `TOOLKIT_*`), injectable with `@Inject(TOOLKIT_CONFIG)`.
export { TOOLKIT_CONFIG } from './toolkit.constants.js';
export type {
  ToolkitConfig,
  ToolkitConfigInput,
  AppSettings,
  LlmSettings,
} from './config/toolkit-config.interface.js';

// Errors: each becomes `{ "error": message, ... }` with its status; throw them from handlers. The
// errors of LLM calls and backends (`LlmError`, `ServiceUnavailableError`, ...) are in
// `toolkit/providers`.
export { ToolkitError } from '../../providers/src/internal.js';
export { ValidationError } from '../../providers/src/internal.js';
export {
  BadRequestError,
  NotFoundError,
  MethodNotAllowedError,
  PayloadTooLargeError,
} from './http/http.errors.js';
export { ConfigError } from '../../providers/src/internal.js';
export { MissingPlatformPackageError } from './http/platform/missing-platform-package.error.js';
