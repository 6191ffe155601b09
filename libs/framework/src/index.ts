// The public surface of `toolkit`: everything a user imports comes from here.
import 'reflect-metadata';

export { App } from './app/app.js';
export type { AppOptions, RunOptions } from './app/app.js';
export type {
  FunctionalHandler,
  FunctionalRouteOptions,
  RouteContext,
} from './app/functional-route.js';
export { ToolkitModule } from './module/toolkit.module.js';
export type { ToolkitModuleOptions } from './module/toolkit.module-definition.js';
export { Route } from './routing/route.decorator.js';
export type { RouteOptions, RouteMetadata } from './routing/route.decorator.js';
export { Stream } from './routing/stream.decorator.js';
export type { StreamOptions } from './routing/stream.decorator.js';
export { Arg } from './routing/arg.decorator.js';
export { RequestSignal, requestSignal, ClientDisconnectedError } from './routing/request-signal.js';
export type { HttpMethod } from './routing/http-method.js';
export type {
  ParamSpec,
  ParamType,
  ParamSource,
  ParamsDeclaration,
  ParamsOf,
} from './routing/param-spec.js';
export {
  LLM,
  UnknownModelError,
  MissingApiKeyError,
  ProviderAuthError,
  ProviderRateLimitError,
  ProviderTimeoutError,
  ProviderError,
  LlmAbortedError,
  EmbeddingsNotSupportedError,
  resolveDefaultModel,
  isKeySet,
} from '../../providers/src/llm/index.js';
export type {
  CallOptions,
  ChatInput,
  ChatModel,
  ChatOptions,
  DefaultModelChoice,
  FinishReason,
  GenerateResponse,
  HistoryMessage,
  LlmOptions,
  ModelResolution,
  ModelSpec,
  StreamingChatOptions,
  TextChatOptions,
  TokenUsage,
  UsageReport,
} from '../../providers/src/llm/index.js';
export { Cache } from './cache/cache.decorator.js';
export { HealthController } from './health/health.controller.js';
export { APP_INFO } from './health/app-info.js';
export type { AppInfo } from './health/app-info.js';
export type { CacheOptions } from './cache/cache.decorator.js';
export { CacheInterceptor } from './cache/cache.interceptor.js';
export { MemoryService } from './memory/memory.service.js';
export { configureNestApp } from './app/configure-app.js';
export { MemoryStore, MEMORY_ROLES } from '../../providers/src/memory/index.js';
export type {
  ConversationMemory,
  MemoryMessage,
  MemoryRole,
  ToDictListOptions,
} from '../../providers/src/memory/index.js';
export { CacheStore } from '../../providers/src/cache/index.js';
export { readUploads } from './upload/read-uploads.js';
export type { UploadedFile, UploadLimits } from './upload/read-uploads.js';
export { installBodyParsers } from './http/body-parsers.js';
export { createValidationPipe } from './http/toolkit-validation.pipe.js';
export { ToolkitExceptionFilter } from './http/exception.filter.js';
export { SseParser, parseSse } from './sse/sse-parser.js';
export type { SseEvent } from './sse/sse-parser.js';
export { loadConfig } from './config/config.loader.js';
export type { LoadConfigOptions } from './config/config.loader.js';
export type {
  ToolkitConfig,
  ToolkitConfigInput,
  AppSettings,
  LlmSettings,
  CacheSettings,
  MemorySettings,
} from './config/toolkit-config.interface.js';
export { TOOLKIT_CONFIG } from './toolkit.constants.js';
export * from '../../providers/src/errors/index.js';
