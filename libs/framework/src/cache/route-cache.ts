import { Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { CacheStore, TraceSpanOptions } from '../../../providers/src/index.js';
import { MemoryCacheStore } from '../../../providers/src/index.js';
import {
  cacheKey,
  type HeaderValues,
  CACHE_SPAN,
  cacheSpanOptions,
  SingleFlight,
  traced,
} from '../../../providers/src/internal.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import type { HttpPlatform } from '../http/platform/http-platform.js';
import { splitTuple } from '../http/reply-rules.js';
import { reportFailure } from '../telemetry/request-failure.js';
import { CACHE_METADATA } from '../toolkit.constants.js';
import type { CacheOptions } from './cache.decorator.js';
import { replayStream } from './cached-stream.js';
import { clusterFlight, type FlightOutcome } from './cluster-flight.js';

/** The platform's response, and the platform it belongs to (the `X-Cache` header goes on it). */
export interface CachedResponse {
  readonly platform: HttpPlatform;
  readonly reply: object;
}

/** What one cache entry holds. */
type Entry = { kind: 'value'; value: unknown } | { kind: 'stream'; chunks: unknown[] };

/**
 * `@Cache`'s store and rules, shared by its two steps: the interceptor that caches a route's
 * value, and the step of `@Stream`'s pipeline that records and replays a stream's chunks (an
 * async iterator wrapped around the handler's, no Observable in between). Identical misses of a
 * value share one run of the handler (across processes when the store can lock); a backend
 * outage is logged once and the route runs uncached until the backend answers again.
 */
export class RouteCache {
  private readonly logger = new Logger('toolkit:cache');
  private readonly flights = new SingleFlight<FlightOutcome>();
  private degraded = false;
  /** Start options of this store's `toolkit.cache.*` spans (a custom store's built here once). */
  private readonly spanOptions: TraceSpanOptions;

  constructor(
    private readonly store: CacheStore,
    private readonly config: ToolkitConfig,
  ) {
    this.spanOptions = cacheSpanOptions(store.backend);
  }

  /** A cache of its own, in memory, for interceptors that run without `ToolkitModule`. */
  static standalone(config: ToolkitConfig): RouteCache {
    return new RouteCache(new MemoryCacheStore({ maxEntries: config.cache.max_entries }), config);
  }

  /** `@Cache`'s options of a handler, when it has them and caching is on. */
  optionsOf(handler: object): CacheOptions | undefined {
    if (!this.config.cache.enabled) return undefined;
    return Reflect.getMetadata(CACHE_METADATA, handler) as CacheOptions | undefined;
  }

  /** Seconds an entry of a route with `options` is kept. */
  ttlOf(options: CacheOptions): number {
    return options.ttl ?? this.config.cache.ttl;
  }

  /**
   * The key of this request: method, route pattern, bound parameters and `vary` headers.
   * Undefined when its parameters make no key (e.g. JSON nested deeper than the stack allows):
   * a client's doing, so the route runs uncached, logged at debug level only.
   */
  keyOf(
    req: IncomingMessage,
    platform: HttpPlatform,
    params: Record<string, unknown>,
    options: CacheOptions,
  ): string | undefined {
    try {
      const vary: HeaderValues = {};
      for (const name of options.vary ?? []) vary[name] = req.headers[name.toLowerCase()];
      const route = platform.routePath(req) ?? platform.requestPath(req);
      return cacheKey(req.method ?? 'GET', route, params, vary);
    } catch (error) {
      this.logger.debug(`Not caching ${req.method} ${platform.requestPath(req)}: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * The stored value of `key`, else what `run` gives (stored when it is a 2xx result): once per
   * key at a time in this process, and across processes when the store can lock.
   */
  async value(
    key: string,
    ttl: number,
    res: CachedResponse,
    run: () => Promise<unknown>,
  ): Promise<unknown> {
    const hit = await this.read(key);
    if (hit?.kind === 'value') {
      res.platform.setHeader(res.reply, 'X-Cache', 'HIT');
      return hit.value;
    }
    // Requests that join a flight already under way do not run the handler: they share its
    // result, so for them it is a hit.
    const follower = this.flights.has(key);
    const flight = (): Promise<FlightOutcome> =>
      this.flights.run(key, () => this.load(key, ttl, run));
    const outcome = await (follower ? traced(CACHE_SPAN.wait, this.spanOptions, flight) : flight());
    res.platform.setHeader(res.reply, 'X-Cache', follower || outcome.hit ? 'HIT' : 'MISS');
    return outcome.value;
  }

  /**
   * The recorded chunks of `key`, else `chunks` passed through and recorded once they completed
   * without error. A stream longer than `maxBytes` is served but not kept. `chunks` is not
   * started on a hit (its `return()` is called instead).
   */
  async *stream(
    key: string,
    ttl: number,
    res: CachedResponse,
    chunks: AsyncGenerator<unknown>,
    maxBytes: number,
  ): AsyncGenerator<unknown> {
    const hit = await this.read(key);
    if (hit?.kind === 'stream') {
      res.platform.setHeader(res.reply, 'X-Cache', 'HIT');
      await chunks.return(undefined);
      yield* replayStream(hit.chunks, this.spanOptions);
      return;
    }
    res.platform.setHeader(res.reply, 'X-Cache', 'MISS');
    let recorded: unknown[] | undefined = [];
    let bytes = 0;
    let complete = false;
    try {
      for await (const chunk of chunks) {
        if (recorded) {
          // An endless or huge stream would otherwise grow the recording without limit.
          bytes += typeof chunk === 'string' ? chunk.length : 64;
          if (bytes > maxBytes) recorded = undefined;
          else recorded.push(chunk);
        }
        yield chunk;
      }
      complete = true;
    } finally {
      if (complete && recorded && !this.degraded) {
        await this.write(key, { kind: 'stream', chunks: recorded }, ttl);
      }
    }
  }

  /** Closes the store (for a cache of its own: `ToolkitModule` closes the shared one). */
  close(): Promise<void> {
    return this.store.close();
  }

  private load(key: string, ttl: number, run: () => Promise<unknown>): Promise<FlightOutcome> {
    const runAndStore = async (): Promise<unknown> => {
      const result = await run();
      // While the backend is failing (this request's read just failed), the write is skipped:
      // an uncached answer then costs one `cache.timeout`, not two.
      if (isSuccess(result) && !this.degraded) {
        await this.write(key, { kind: 'value', value: result }, ttl);
      }
      return result;
    };
    const { store } = this;
    if (!store.lock) return runAndStore().then((value) => ({ value, hit: false }));
    const lockTtl = this.config.cache.lock_ttl ?? 10;
    return clusterFlight(
      {
        lock: () => store.lock?.(key, lockTtl) ?? Promise.resolve(undefined),
        read: async () => {
          const entry = await this.read(key);
          return entry?.kind === 'value' ? entry : undefined;
        },
        run: runAndStore,
      },
      lockTtl,
    );
  }

  private async read(key: string): Promise<Entry | undefined> {
    try {
      const entry = await this.store.get<Entry>(key);
      this.recovered();
      return entry;
    } catch (error) {
      this.failed('read', error);
      return undefined;
    }
  }

  private async write(key: string, entry: Entry, ttl: number): Promise<void> {
    try {
      await this.store.set(key, entry, ttl);
      this.recovered();
    } catch (error) {
      this.failed('write', error);
    }
  }

  private failed(what: string, error: unknown): void {
    reportFailure(error);
    if (this.degraded) return;
    this.degraded = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `Cache ${what} failed, serving uncached until the ${this.store.backend} backend is back: ${reason}`,
    );
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.logger.log(`Cache backend ${this.store.backend} is back`);
  }
}

function isSuccess(result: unknown): boolean {
  const [, status] = splitTuple(result);
  return status === undefined || (status >= 200 && status < 300);
}
