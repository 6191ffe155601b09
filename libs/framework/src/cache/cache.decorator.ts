import { SetMetadata, UseInterceptors } from '@nestjs/common';
import { assertToolkitInterceptorsOuter } from '../routing/interceptor-order.js';
import { StreamInterceptor } from '../sse/stream.interceptor.js';
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
 * It runs outside the method's own interceptors (they do not run on a hit): write `@Cache()` below
 * any `@UseInterceptors()`, nearest the method (the other order is a `TypeError` when the class is
 * defined). On a stream route it is a step of the stream's pipeline, on the same async iterator,
 * whichever of `@Cache()` and `@Stream()` comes first.
 *
 * @example
 * @Route('/summarize', { methods: ['POST'] })
 * @Cache({ ttl: 60 })
 * summarize(@Arg('text') text: string) { ... }
 */
export function Cache(options: CacheOptions = {}): MethodDecorator {
  return (target, key, descriptor) => {
    assertToolkitInterceptorsOuter('@Cache()', descriptor.value as object, [StreamInterceptor]);
    SetMetadata(CACHE_METADATA, options)(target, key, descriptor);
    UseInterceptors(CacheInterceptor)(target, key, descriptor);
    return descriptor;
  };
}
