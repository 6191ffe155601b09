import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { cacheKey, type HeaderValues } from '../../../providers/src/cache/cache-key.js';
import { CACHE_SPAN, cacheSpanOptions } from '../../../providers/src/cache/cache-spans.js';
import { CacheStore } from '../../../providers/src/cache/cache-store.interface.js';
import { MemoryCacheStore } from '../../../providers/src/cache/memory-cache.store.js';
import { SingleFlight } from '../../../providers/src/cache/single-flight.js';
import { traced } from '../../../providers/src/telemetry/tracing.js';
import type { TraceSpanOptions } from '../../../providers/src/telemetry/tracer.interface.js';
import { standaloneConfig } from '../config/config-defaults.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import type { HttpPlatform } from '../http/platform/http-platform.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { splitTuple } from '../http/reply-rules.js';
import { bindRequest } from '../routing/bind-request.js';
import { routeInfo } from '../routing/route-info.js';
import { DEFAULT_MAX_PENDING_BYTES } from '../sse/stream-options.js';
import { streamChunks, type StreamOverflowError } from '../sse/stream-source.js';
import { requestAbortController } from '../routing/request-signal.js';
import { failActiveStream } from '../sse/stream.interceptor.js';
import { CACHE_METADATA, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { reportFailure } from '../telemetry/request-failure.js';
import type { CacheOptions } from './cache.decorator.js';
import { replayStream } from './cached-stream.js';
import { clusterFlight, type FlightOutcome } from './cluster-flight.js';

/** The platform's request, as far as the cache reads it. */
type Request = IncomingMessage;

/** The platform's response and the platform it belongs to. */
interface Response {
  readonly platform: HttpPlatform;
  readonly reply: object;
}

/** What one cache entry holds. */
type Entry = { kind: 'value'; value: unknown } | { kind: 'stream'; chunks: unknown[] };

/**
 * The interceptor behind `@Cache` (see there for the behaviour). Inside `@Stream`'s, outside the
 * method's own interceptors. It keys entries by the request's bound parameters, so a request with
 * bad parameters is answered 422 before anything is read or stored.
 *
 * In a module that does not import `ToolkitModule` (a controller's unit test) it runs on its own:
 * the configuration's defaults (see `standaloneConfig`) and an in-memory store of its own, so
 * each compiled testing module starts with an empty cache.
 */
@Injectable()
export class CacheInterceptor implements NestInterceptor, OnModuleDestroy {
  /** Position among toolkit's method interceptors: after `@Stream`'s. */
  static readonly toolkitOrder = 1;
  private readonly logger = new Logger('toolkit:cache');
  private readonly flights = new SingleFlight<FlightOutcome>();
  private readonly store: CacheStore;
  private readonly config: ToolkitConfig;
  /** True when the store is this interceptor's own (no `ToolkitModule`), closed with it. */
  private readonly ownsStore: boolean;
  private degraded = false;
  /** Start options of this store's `toolkit.cache.*` spans (a custom store's built here once). */
  private readonly spanOptions: TraceSpanOptions;

  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(CacheStore) store?: CacheStore,
    @Optional() @Inject(TOOLKIT_CONFIG) config?: ToolkitConfig,
  ) {
    this.config = config ?? standaloneConfig();
    this.ownsStore = store === undefined;
    this.store = store ?? new MemoryCacheStore({ maxEntries: this.config.cache.max_entries });
    this.spanOptions = cacheSpanOptions(this.store.backend);
  }

  /** Closes the store when it is this interceptor's own; `ToolkitModule` closes its own. */
  async onModuleDestroy(): Promise<void> {
    if (this.ownsStore) await this.store.close();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    const options = this.reflector.get<CacheOptions | undefined>(CACHE_METADATA, handler);
    if (!options || !this.config.cache.enabled || context.getType() !== 'http')
      return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const reply = context.switchToHttp().getResponse<object>();
    const res: Response = { platform: platformOfResponse(reply), reply };
    const bound = bindRequest(req, reply as ServerResponse, handler);
    return from(
      bound instanceof Promise
        ? bound.then((params) => this.serve(params, options, req, res, handler, next))
        : this.serve(bound, options, req, res, handler, next),
    );
  }

  private serve(
    params: Record<string, unknown>,
    options: CacheOptions,
    req: Request,
    res: Response,
    handler: object,
    next: CallHandler,
  ): Promise<unknown> {
    const stream = routeInfo(handler)?.stream;
    const maxPendingBytes = stream?.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    let key: string;
    try {
      key = this.keyOf(req, res.platform, params, options);
    } catch (error) {
      // Parameters no key can be made of (e.g. JSON nested deeper than the stack allows) are a
      // client's doing: the route runs uncached rather than failing. Debug level, since any
      // client can trigger it.
      this.logger.debug(
        `Not caching ${req.method} ${res.platform.requestPath(req)}: ${String(error)}`,
      );
      return stream
        ? Promise.resolve(this.chunks(next, maxPendingBytes, req, res))
        : lastValueFrom(next.handle(), { defaultValue: undefined });
    }
    const ttl = options.ttl ?? this.config.cache.ttl;
    return stream
      ? this.serveStream(
          key,
          ttl,
          res,
          this.chunks(next, maxPendingBytes, req, res),
          maxPendingBytes,
        )
      : this.serveValue(key, ttl, next, res);
  }

  /** The handler's chunks, one by one; an Observable overrun aborts the request, as `@Stream` does. */
  private chunks(
    next: CallHandler,
    maxPendingBytes: number,
    req: Request,
    res: Response,
  ): AsyncGenerator<unknown> {
    const onOverflow = (error: StreamOverflowError): void => {
      failActiveStream(req, error);
      requestAbortController(req, res.platform.rawResponse(res.reply)).abort(error);
    };
    return streamChunks(next.handle(), maxPendingBytes, onOverflow);
  }

  private async serveValue(
    key: string,
    ttl: number,
    next: CallHandler,
    res: Response,
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
      this.flights.run(key, () => this.load(key, ttl, next));
    const outcome = await (follower ? traced(CACHE_SPAN.wait, this.spanOptions, flight) : flight());
    res.platform.setHeader(res.reply, 'X-Cache', follower || outcome.hit ? 'HIT' : 'MISS');
    return outcome.value;
  }

  /**
   * Runs the handler and stores a successful result — once per key across every process when
   * the backend is shared (Redis): see {@link clusterFlight}.
   */
  private load(key: string, ttl: number, next: CallHandler): Promise<FlightOutcome> {
    const run = async (): Promise<unknown> => {
      const result: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      // While the backend is failing (this request's read just failed), the write is skipped:
      // an uncached answer then costs one `cache.timeout`, not two.
      if (isSuccess(result) && !this.degraded) {
        await this.write(key, { kind: 'value', value: result }, ttl);
      }
      return result;
    };
    const { store } = this;
    if (!store.lock) return run().then((value) => ({ value, hit: false }));
    const lockTtl = this.config.cache.lock_ttl ?? 10;
    return clusterFlight(
      {
        lock: () => store.lock?.(key, lockTtl) ?? Promise.resolve(undefined),
        read: async () => {
          const entry = await this.read(key);
          return entry?.kind === 'value' ? entry : undefined;
        },
        run,
      },
      lockTtl,
    );
  }

  private async serveStream(
    key: string,
    ttl: number,
    res: Response,
    chunks: AsyncGenerator<unknown>,
    maxBytes: number,
  ): Promise<unknown> {
    const hit = await this.read(key);
    if (hit?.kind === 'stream') {
      res.platform.setHeader(res.reply, 'X-Cache', 'HIT');
      return replayStream(hit.chunks, this.spanOptions);
    }
    res.platform.setHeader(res.reply, 'X-Cache', 'MISS');
    return this.record(key, ttl, chunks, maxBytes);
  }

  /** Passes chunks through and stores them once the stream completed without error. */
  private async *record(
    key: string,
    ttl: number,
    source: AsyncGenerator<unknown>,
    maxBytes: number,
  ): AsyncGenerator<unknown> {
    let chunks: unknown[] | undefined = [];
    let bytes = 0;
    let complete = false;
    try {
      for await (const chunk of source) {
        if (chunks) {
          // A stream longer than the bound is served but not kept: an endless or huge stream
          // would otherwise grow the recording without limit.
          bytes += typeof chunk === 'string' ? chunk.length : 64;
          if (bytes > maxBytes) chunks = undefined;
          else chunks.push(chunk);
        }
        yield chunk;
      }
      complete = true;
    } finally {
      if (complete && chunks && !this.degraded) {
        await this.write(key, { kind: 'stream', chunks }, ttl);
      }
    }
  }

  private keyOf(
    req: Request,
    platform: HttpPlatform,
    params: Record<string, unknown>,
    options: CacheOptions,
  ): string {
    const vary: HeaderValues = {};
    for (const name of options.vary ?? []) vary[name] = req.headers[name.toLowerCase()];
    const route = platform.routePath(req) ?? platform.requestPath(req);
    return cacheKey(req.method ?? 'GET', route, params, vary);
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
