import { Module, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { CacheStore } from '../../../providers/src/cache/index.js';
import { LLM } from '../../../providers/src/llm/index.js';
import { MemoryStore } from '../../../providers/src/memory/index.js';
import { CacheInterceptor } from '../cache/cache.interceptor.js';
import { cacheProviders } from '../cache/cache.providers.js';
import { loadConfig } from '../config/config.loader.js';
import { ToolkitExceptionFilter } from '../http/exception.filter.js';
import { ToolkitRouteInterceptor } from '../http/route.interceptor.js';
import { APP_INFO, appInfoProvider } from '../health/app-info.js';
import { llmProvider } from '../llm/llm.providers.js';
import { MemoryService } from '../memory/memory.service.js';
import { memoryProviders } from '../memory/memory.providers.js';
import { OpenApiController } from '../openapi/openapi.controller.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import {
  TOOLKIT_MODULE_OPTIONS,
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
 * the injectable `LLM` and `MemoryService`, the `@Cache` backend, the route interceptor behind `@Route`/`@Stream`, the `{ error }` exception filter and
 * `/openapi.json`. Global, so import it once in the root module.
 *
 * @example
 * @Module({ imports: [ToolkitModule.forRoot({ config: { llm: { default_model: 'echo' } } })] })
 * export class AppModule {}
 */
@Module({
  imports: [DiscoveryModule],
  controllers: [OpenApiController],
  providers: [
    configProvider,
    appInfoProvider,
    llmProvider,
    ...memoryProviders,
    ...cacheProviders,
    { provide: APP_INTERCEPTOR, useClass: ToolkitRouteInterceptor },
    { provide: APP_FILTER, useClass: ToolkitExceptionFilter },
  ],
  exports: [
    TOOLKIT_CONFIG,
    APP_INFO,
    LLM,
    MemoryService,
    MemoryStore,
    CacheStore,
    CacheInterceptor,
  ],
})
export class ToolkitModule extends ToolkitModuleBase {}
