import {
  Inject,
  Module,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Provider,
} from '@nestjs/common';
import { APP_FILTER, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { CacheStore } from '../../../providers/src/cache/cache-store.interface.js';
import { LLM } from '../../../providers/src/llm/llm.js';
import { MemoryStore } from '../../../providers/src/memory/memory-store.interface.js';
import { CacheInterceptor } from '../cache/cache.interceptor.js';
import { cacheProviders } from '../cache/cache.providers.js';
import { loadConfig } from '../config/config.loader.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { platformOf } from '../http/platform/platform-of.js';
import { trackRequests } from '../logging/request-tracking.js';
import { ToolkitExceptionFilter } from '../http/exception.filter.js';
import { ValidationBinder } from '../http/validation-binder.js';
import { appInfoProvider } from '../health/app-info.js';
import { llmProvider } from '../llm/llm.providers.js';
import { McpClient } from '../mcp/client/mcp-client.js';
import { MemoryService } from '../memory/memory.service.js';
import { memoryProviders } from '../memory/memory.providers.js';
import { OpenApiController } from '../openapi/openapi.controller.js';
import { RateCounter } from '../rate-limit/rate-counter.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { DirectStreams } from '../sse/direct-streams.js';
import { ResumableStreams } from '../sse/resumable-streams.js';
import { StreamRegistry } from '../sse/stream-registry.js';
import { StreamInterceptor } from '../sse/stream.interceptor.js';
import { APP_INFO, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { ToolkitLifecycle } from './toolkit.lifecycle.js';
import {
  TOOLKIT_ASYNC_OPTIONS_TYPE,
  TOOLKIT_MODULE_OPTIONS,
  TOOLKIT_OPTIONS_TYPE,
  ToolkitModuleBase,
  type ToolkitModuleOptions,
} from './toolkit.module-definition.js';

const configProvider: Provider = {
  provide: TOOLKIT_CONFIG,
  useFactory: (options: ToolkitModuleOptions) =>
    loadConfig({ cwd: options.cwd, ...(options.config ? { overrides: options.config } : {}) }),
  inject: [TOOLKIT_MODULE_OPTIONS],
};

/**
 * Everything toolkit adds to a Nest application: the resolved configuration (`TOOLKIT_CONFIG`),
 * the injectable `LLM` and `MemoryService`, the `@Cache` backend, the interceptors behind
 * `@Stream` and `@Cache`, the counters behind `@RateLimit()` (`RateLimiter`, `RateCounter`),
 * toolkit's return rules and `{ error }` bodies on toolkit routes, graceful shutdown of open
 * streams (interrupted turns stored before the backends close). It adds no route: `/openapi.json`
 * only with `openapi: true` (what `App` passes), and `/health` only where the application lists
 * `HealthController`. Global by default, so import it once in the root module; `forRoot()` needs
 * no argument.
 *
 * A module that does not import it (the unit test `nest g controller` writes) still resolves the
 * interceptors, guards and pipes of `@Stream`, `@Cache`, `@Session` and `@RateLimit`, with the
 * configuration's defaults and in-memory backends of their own; toolkit's return rules, `{ error }`
 * bodies, stream draining at shutdown and `validate` come with this module.
 *
 * @example
 * @Module({ imports: [ToolkitModule.forRoot()], controllers: [ChatController] })
 * export class AppModule {}
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    configProvider,
    appInfoProvider,
    llmProvider,
    ...memoryProviders,
    ...cacheProviders,
    StreamRegistry,
    ResumableStreams,
    StreamInterceptor,
    DirectStreams,
    ToolkitLifecycle,
    ValidationBinder,
    ToolRegistry,
    McpClient,
    RateCounter,
    RateLimiter,
    { provide: APP_FILTER, useClass: ToolkitExceptionFilter },
  ],
  exports: [
    TOOLKIT_CONFIG,
    TOOLKIT_MODULE_OPTIONS,
    APP_INFO,
    LLM,
    MemoryService,
    MemoryStore,
    CacheStore,
    CacheInterceptor,
    StreamInterceptor,
    StreamRegistry,
    ResumableStreams,
    ToolRegistry,
    McpClient,
    RateCounter,
    RateLimiter,
  ],
})
export class ToolkitModule extends ToolkitModuleBase implements NestModule {
  constructor(
    private readonly directStreams: DirectStreams,
    @Inject(TOOLKIT_MODULE_OPTIONS) private readonly options: ToolkitModuleOptions,
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    super();
  }

  /**
   * Runs while Nest sets up middleware, after the controllers are built and before their routes
   * are registered: the moment `@Stream()` routes can get their direct handlers, and request ids
   * (the `requestIds` option) their hooks.
   */
  configure(_consumer: MiddlewareConsumer): void {
    this.directStreams.install();
    const adapter = this.adapterHost.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (this.options.requestIds && adapter) {
      const instance = adapter.getInstance<object>();
      trackRequests(instance, platformOf(adapter), this.config.app)?.();
    }
  }

  /** Toolkit with options given in code (all optional). */
  static override forRoot(options: typeof TOOLKIT_OPTIONS_TYPE = {}): DynamicModule {
    return withOpenApi(super.forRoot(options), options.openapi);
  }

  /**
   * Toolkit with options resolved by DI (`useFactory` + `inject`, `useClass` or `useExisting`);
   * with none of them it behaves as `forRoot()`. `isGlobal` and `openapi` are given here, beside
   * the factory (see `ToolkitModuleExtras`).
   */
  static override forRootAsync(options: typeof TOOLKIT_ASYNC_OPTIONS_TYPE = {}): DynamicModule {
    const resolved =
      options.useFactory || options.useClass || options.useExisting
        ? options
        : { ...options, useFactory: (): ToolkitModuleOptions => ({}) };
    return withOpenApi(super.forRootAsync(resolved), options.openapi);
  }
}

/** The module with `OpenApiController` when `openapi` is on: without it, no route at all. */
function withOpenApi(module: DynamicModule, openapi: boolean | undefined): DynamicModule {
  if (!openapi) return module;
  return { ...module, controllers: [...(module.controllers ?? []), OpenApiController] };
}
