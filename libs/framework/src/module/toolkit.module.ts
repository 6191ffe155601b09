import {
  Inject,
  Module,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Provider,
} from '@nestjs/common';
import { APP_INTERCEPTOR, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { CacheStore, MemoryStore } from '../../../providers/src/index.js';
import { LLM, StreamLog } from '../../../providers/src/internal.js';
import { CacheInterceptor } from '../cache/cache.interceptor.js';
import { RouteCache } from '../cache/route-cache.js';
import { cacheProviders } from '../cache/cache.providers.js';
import { loadConfig } from '../config/config.loader.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { platformOf } from '../http/platform/platform-of.js';
import { trackRequests } from '../logging/request-tracking.js';
import { ReplyRulesInterceptor } from '../http/reply-rules.interceptor.js';
import { ParamSchemaCheck } from '../http/param-schema-check.js';
import { withValidationPipe } from '../http/validation-pipe.provider.js';
import { appInfoProvider } from '../health/app-info.js';
import { llmProvider } from '../llm/llm.providers.js';
import { McpClient } from '../mcp/client/mcp-client.js';
import { MemoryService } from '../memory/memory.service.js';
import { memoryProviders } from '../memory/memory.providers.js';
import { OpenApiController } from '../openapi/openapi.controller.js';
import { RateCounter } from '../rate-limit/rate-counter.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ResumableStreams } from '../sse/resumable-streams.js';
import { streamLogProvider } from '../sse/stream-log.providers.js';
import { StreamRegistry } from '../sse/stream-registry.js';
import { StreamInterceptor } from '../sse/stream.interceptor.js';
import { APP_INFO, PRELOADED_CONFIG, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { ToolRegistry } from '../tools/tool.registry.js';
import { exceptionFilterProvider } from './exception-filter.provider.js';
import { ToolkitLifecycle } from './toolkit.lifecycle.js';
import {
  TOOLKIT_ASYNC_OPTIONS_TYPE,
  TOOLKIT_MODULE_OPTIONS,
  TOOLKIT_OPTIONS_TYPE,
  ToolkitModuleBase,
  type ToolkitModuleExtras,
  type ToolkitModuleOptions,
} from './toolkit.module-definition.js';

/** The configuration `App` resolved already (`withPreloadedConfig`), else loaded from the options. */
const configProvider: Provider = {
  provide: TOOLKIT_CONFIG,
  useFactory: (options: ToolkitModuleOptions, preloaded?: ToolkitConfig) =>
    preloaded ??
    loadConfig({ cwd: options.cwd, ...(options.config ? { overrides: options.config } : {}) }),
  inject: [TOOLKIT_MODULE_OPTIONS, { token: PRELOADED_CONFIG, optional: true }],
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
 * Toolkit's exception filter catches everything, and Nest tries the global filter registered last
 * first: a global filter of yours gets the exceptions its `@Catch()` names when it is registered
 * after toolkit's, with `app.useGlobalFilters()` or as an `APP_FILTER` of a module imported after
 * `ToolkitModule`. An `APP_FILTER` of the module importing `ToolkitModule` is registered before
 * it, so toolkit answers first, unless the module's metadata goes through `exceptionFilterFirst`
 * (as `App`'s and `createTestingApp`'s do), which registers toolkit's filter ahead of the module's
 * own providers. Method and controller filters (`@UseFilters`) always come first.
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
    streamLogProvider,
    ResumableStreams,
    StreamInterceptor,
    ToolkitLifecycle,
    ParamSchemaCheck,
    ToolRegistry,
    McpClient,
    RateCounter,
    RateLimiter,
  ],
  exports: [
    TOOLKIT_CONFIG,
    TOOLKIT_MODULE_OPTIONS,
    APP_INFO,
    LLM,
    MemoryService,
    MemoryStore,
    CacheStore,
    RouteCache,
    StreamLog,
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
    @Inject(TOOLKIT_MODULE_OPTIONS) private readonly options: ToolkitModuleOptions,
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    super();
  }

  /**
   * Runs while Nest sets up middleware, before the routes are registered: the moment request ids
   * (the `requestIds` option) get their hooks.
   */
  configure(_consumer: MiddlewareConsumer): void {
    const adapter = this.adapterHost.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (this.options.requestIds && adapter) {
      const instance = adapter.getInstance<object>();
      trackRequests(instance, platformOf(adapter), this.config.app)?.();
    }
  }

  /** Toolkit with options given in code (all optional). */
  static override forRoot(options: typeof TOOLKIT_OPTIONS_TYPE = {}): DynamicModule {
    const module = withExtras(super.forRoot(options), options);
    return options.validate ? withValidationPipe(module) : module;
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
    // `validate` comes from the factory: the pipe's provider reads it (off, it gives no pipe).
    return withValidationPipe(withExtras(super.forRootAsync(resolved), options));
  }
}

/**
 * The module with `OpenApiController` when `openapi` is on (without it, no route at all), and
 * the interceptor of toolkit's return rules unless `adapterReplies` says the adapter applies them.
 * Toolkit's exception filter is registered here, not in `@Module()`, so that a root module can
 * take it over and register it before its own global filters (`exceptionFilterFirst`).
 */
function withExtras(module: DynamicModule, extras: ToolkitModuleExtras): DynamicModule {
  const replies: Provider[] = extras.adapterReplies
    ? []
    : [{ provide: APP_INTERCEPTOR, useClass: ReplyRulesInterceptor }];
  return {
    ...module,
    providers: [...(module.providers ?? []), exceptionFilterProvider, ...replies],
    controllers: [...(module.controllers ?? []), ...(extras.openapi ? [OpenApiController] : [])],
  };
}
