import type { Provider } from '@nestjs/common';
import { CacheStore, createCacheStore } from '../../../providers/src/index.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { CacheInterceptor } from './cache.interceptor.js';
import { RouteCache } from './route-cache.js';

/**
 * The cache backend chosen by `cache.backend` (closed with the app by `ToolkitLifecycle`), the
 * `RouteCache` `@Cache` keeps in it, and `@Cache`'s interceptor.
 */
export const cacheProviders: Provider[] = [
  {
    provide: CacheStore,
    useFactory: (config: ToolkitConfig) => createCacheStore(config.cache),
    inject: [TOOLKIT_CONFIG],
  },
  {
    provide: RouteCache,
    useFactory: (store: CacheStore, config: ToolkitConfig) => new RouteCache(store, config),
    inject: [CacheStore, TOOLKIT_CONFIG],
  },
  CacheInterceptor,
];
