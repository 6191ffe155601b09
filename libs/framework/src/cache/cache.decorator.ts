import { SetMetadata, UseInterceptors } from '@nestjs/common';
import { orderToolkitInterceptors } from '../routing/interceptor-order.js';
import { CACHE_METADATA } from '../toolkit.constants.js';
import { CacheInterceptor } from './cache.interceptor.js';

/** Options of {@link Cache}. */
export interface CacheOptions {
  /** Seconds a result is kept. @default config `cache.ttl` (300) */
  ttl?: number;
  /**
   * Request headers that are part of the key, so callers who differ in them never share an
   * entry (e.g. `['authorization', 'x-api-key']` on a per-key API). @default []
   */
  vary?: readonly string[];
}

/**
 * Caches a route's result. Identical requests (same method, route and parameters, plus the
 * `vary` headers) within `ttl` seconds get the stored answer without running the handler, with
 * `X-Cache: HIT`; the first gets `X-Cache: MISS`. Concurrent identical misses run the handler
 * once. Only 2xx results are stored. On a `@Stream()` route the chunks are recorded and replayed
 * as SSE; a stream larger than the route's `maxPendingBytes` (4 MiB) is served but not stored. A cache backend outage is logged and the route runs uncached; it never fails a request.
 * It runs inside `@Stream` and outside the method's own interceptors, whatever the order of the
 * decorators: on a stream route as a step of the stream's pipeline, on the same async iterator.
 *
 * @example
 * @Route('/summarize', { methods: ['POST'] })
 * @Cache({ ttl: 60 })
 * summarize(@Arg('text') text: string) { ... }
 */
export function Cache(options: CacheOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    SetMetadata(CACHE_METADATA, options)(target, key, descriptor);
    UseInterceptors(CacheInterceptor)(target, key, descriptor);
    orderToolkitInterceptors(descriptor.value as object);
    return descriptor;
  };
}
