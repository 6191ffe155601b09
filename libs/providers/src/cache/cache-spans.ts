import type { TraceSpanOptions } from '../telemetry/tracer.interface.js';
import type { CacheBackend } from './cache-store.interface.js';

/** Names of the spans of response-cache operations (children of the request's span). */
export const CACHE_SPAN = {
  /** `CacheStore.get`: one lookup, a hit or a miss (`toolkit.cache.hit`). */
  get: 'toolkit.cache.get',
  /** `CacheStore.set`: one entry stored (or removed, for a TTL of 0). */
  set: 'toolkit.cache.set',
  /** `@Cache` serving a recorded stream again, from its first chunk to its last. */
  replay: 'toolkit.cache.replay',
  /** `@Cache`: a request waiting for the identical request already running (single flight). */
  wait: 'toolkit.cache.wait',
} as const;

/** Attribute names of cache spans. Never the key: it is made of the request's parameters. */
export const CACHE_ATTRIBUTE = {
  /** `memory` or `redis`. */
  backend: 'toolkit.cache.backend',
  /** `get`: whether an entry was found. */
  hit: 'toolkit.cache.hit',
  /** `set`: the entry's time to live, in seconds. */
  ttl: 'toolkit.cache.ttl',
  /** `replay`: chunks served. */
  chunks: 'toolkit.cache.chunks',
} as const;

function options(backend: string): TraceSpanOptions {
  return Object.freeze({
    kind: 'internal',
    attributes: Object.freeze({ [CACHE_ATTRIBUTE.backend]: backend }),
  });
}

/**
 * The start options of each backend's cache spans, built once so a lookup allocates nothing
 * for them.
 *
 * @example
 * await traced(CACHE_SPAN.get, CACHE_SPAN_OPTIONS.redis, (span) => redis.get(key));
 */
export const CACHE_SPAN_OPTIONS: Readonly<Record<CacheBackend, TraceSpanOptions>> = Object.freeze({
  memory: options('memory'),
  redis: options('redis'),
});

/**
 * The start options of cache spans for `backend`: the shared ones of toolkit's backends, or new
 * ones for a custom store's own name (build them once, e.g. in a constructor).
 *
 * @example
 * this.spanOptions = cacheSpanOptions(store.backend);
 */
export function cacheSpanOptions(backend: string): TraceSpanOptions {
  const shared: Readonly<Record<string, TraceSpanOptions | undefined>> = CACHE_SPAN_OPTIONS;
  return shared[backend] ?? options(backend);
}
