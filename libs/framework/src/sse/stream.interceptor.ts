import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Observable, of } from 'rxjs';
import { standaloneConfig } from '../config/config-defaults.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { publicMessage } from '../http/error-response.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { bindRequest, enterRoute } from '../routing/bind-request.js';
import { deferAbortController, mayReadSignalEarly } from '../routing/request-signal.js';
import { routeInfo } from '../routing/route-info.js';
import { RouteCache, type CachedResponse } from '../cache/route-cache.js';
import type { CacheOptions } from '../cache/cache.decorator.js';
import { CACHE_METADATA, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { ResumableStreams } from './resumable-streams.js';
import { SsePump } from './sse-pump.js';
import { DEFAULT_MAX_PENDING_BYTES, type StreamOptions } from './stream-options.js';
import { reconnectsAfterEnd, resumesStream } from './stream-position.js';
import { createStreamLog } from './stream-log.factory.js';
import { StreamRegistry } from './stream-registry.js';
import { observableIterator, streamChunks, type ChunkSource } from './stream-source.js';
import type { StreamOverflowError } from './stream-overflow.error.js';
import { logFailure } from '../http/log-failure.js';
import { reportFailure } from '../telemetry/request-failure.js';
import {
  recordedUiMessages,
  uiMessageReplay,
  uiMessageStream,
} from './ui-message/ui-message-stream.js';

/**
 * The abort reason once a stream is over (Nest's `@SseSignal()` contract: the signal aborts when
 * the stream ends, however it ended). One shared instance: building an error per stream costs a
 * stack trace each time.
 */
const STREAM_ENDED = new Error('The stream ended');
STREAM_ENDED.name = 'StreamEndedError';

/** Builds what a stream walks, given the bound on unread output and the overrun callback. */
type EmissionSource = (
  maxPendingBytes: number,
  onOverflow: (error: StreamOverflowError) => void,
) => AsyncIterator<unknown>;

/** What the interceptor reads of the platform's request. */
type StreamRequest = IncomingMessage & { originalUrl?: string; body?: unknown };

/** The AI SDK chat a `'ui-message'` request is for: its body's `id`, when it has one. */
function chatIdOf(req: StreamRequest): string | undefined {
  const body = req.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Answers the reconnect of an `EventSource` that read a plain stream to its end (see
 * `reconnectsAfterEnd`): `204 No Content`, which makes it stop, without running the handler.
 */
function answerEnded(reply: object): void {
  const res = platformOfResponse(reply).takeOver(reply);
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204);
  res.end();
}

/**
 * The interceptor behind `@Stream()`, every stream route's one entry: streams what the handler
 * produces as Server-Sent Events, written straight to the response (the adapter's reply then has
 * nothing left to send). It is the outermost of a method's interceptors, so the method's own
 * interceptors see the raw chunks; `@Cache` is a step on the chunks' async iterator here (see
 * `RouteCache.stream`), ahead of the resumable log and the pump.
 *
 * In a module that does not import `ToolkitModule` (a controller's unit test) it runs on its own:
 * the configuration's defaults (see `standaloneConfig`) and a stream registry, resumable-stream
 * log and cache of its own, in memory, which it stops when the application shuts down.
 */
@Injectable()
export class StreamInterceptor implements NestInterceptor, OnApplicationShutdown {
  private readonly logger = new Logger('toolkit');
  private readonly config: ToolkitConfig;
  private readonly streams: StreamRegistry;
  private readonly resumables: ResumableStreams;
  /** Which of the registry and the resumable streams are this interceptor's own. */
  private readonly owns: { streams: boolean; resumables: boolean };
  /** `@Cache`'s store and rules: `ToolkitModule`'s, else one of its own made when first needed. */
  private cache: RouteCache | undefined;
  private ownsCache = false;

  constructor(
    @Optional() @Inject(TOOLKIT_CONFIG) config?: ToolkitConfig,
    @Optional() @Inject(StreamRegistry) streams?: StreamRegistry,
    @Optional() @Inject(ResumableStreams) resumables?: ResumableStreams,
    @Optional() @Inject(RouteCache) cache?: RouteCache,
  ) {
    this.cache = cache;
    this.config = config ?? standaloneConfig();
    this.owns = { streams: streams === undefined, resumables: resumables === undefined };
    this.streams = streams ?? new StreamRegistry();
    this.resumables = resumables ?? new ResumableStreams(this.config, createStreamLog(this.config));
  }

  /**
   * Ends the streams of a standalone interceptor as `ToolkitModule` ends them (grace period, then
   * stop); with `ToolkitModule`, its lifecycle does that and this does nothing.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.owns.streams) await this.streams.drain(this.config.app.shutdown_grace * 1000);
    if (this.owns.resumables) await this.resumables.onApplicationShutdown();
    if (this.ownsCache) await this.cache?.close();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    const stream = routeInfo(handler)?.stream;
    if (context.getType() !== 'http' || !stream) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<StreamRequest>();
    const reply = http.getResponse<object>();
    if (reconnectsAfterEnd(req)) {
      answerEnded(reply);
      return of(undefined);
    }
    // A resume does not run the handler: its parameters are not checked (nor needed again).
    enterRoute(req, reply as ServerResponse, handler, !(stream.resumable && resumesStream(req)));
    this.streams.admit();
    const resumable = typeof stream.resumable === 'object' ? stream.resumable : {};
    // Past the caps on producers: a 429 the exception filter answers, before the takeover.
    if (stream.resumable) {
      this.resumables.admit(req, platformOfResponse(reply).rawResponse(reply), resumable);
    }
    // From here on the stream writes the Node response itself (Fastify: the reply is hijacked).
    const res = platformOfResponse(reply).takeOver(reply);
    let start: () => Promise<void>;
    if (stream.resumable) {
      const maxPendingBytes = stream.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
      const ui = stream.format === 'ui-message';
      const chunks: ChunkSource =
        this.cachedChunks(req, reply, handler, next) ??
        ((bound, onOverflow) => streamChunks(next.handle(), bound, onOverflow));
      const source = this.resumables.open(req, res, chunks, {
        ...resumable,
        maxPendingBytes,
        describeError: this.describeError,
        ...(ui && {
          encode: (chunks, onOverflow) => recordedUiMessages(chunks, maxPendingBytes, onOverflow),
          chatId: chatIdOf(req),
        }),
      });
      start = () =>
        this.pumped(
          req,
          res,
          stream,
          () => source.events,
          source.controller,
          ui ? 'replay' : 'live',
        );
    } else {
      const early = mayReadSignalEarly(context.getClass(), handler);
      const controller = deferAbortController(req, res, early);
      const emissions: EmissionSource =
        this.cachedChunks(req, reply, handler, next) ??
        ((bound, onOverflow) => observableIterator(next.handle(), bound, onOverflow));
      start = () => this.pumped(req, res, stream, emissions, controller);
    }
    return new Observable((subscriber) => {
      start().then(
        () => {
          subscriber.next(undefined);
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
    });
  }

  /**
   * `@Cache` as a step of the stream, on the same async iterator: on a miss the chunks pass
   * through and are recorded, on a hit the recording is replayed and neither the handler nor the
   * method's own interceptors run. Undefined when the route is not cached.
   */
  private cachedChunks(
    req: StreamRequest,
    reply: object,
    handler: object,
    next: CallHandler,
  ): ChunkSource | undefined {
    if (!Reflect.hasMetadata(CACHE_METADATA, handler)) return undefined;
    const cache = this.routeCache();
    const options = cache.optionsOf(handler);
    if (!options) return undefined;
    const res: CachedResponse = { platform: platformOfResponse(reply), reply };
    return (bound, onOverflow) =>
      cachedStream(
        cache,
        options,
        req,
        res,
        handler,
        streamChunks(next.handle(), bound, onOverflow),
        bound,
      );
  }

  private routeCache(): RouteCache {
    if (this.cache) return this.cache;
    this.ownsCache = true;
    return (this.cache = RouteCache.standalone(this.config));
  }

  private readonly describeError = (error: unknown): string =>
    publicMessage(error, this.config.app.debug);

  /**
   * Streams the emissions `source` gives (told the bound on unread output and what to call when
   * an Observable overruns it) into the response. `controller` aborts when the stream is over,
   * however it ended.
   */
  private async pumped(
    req: StreamRequest,
    res: ServerResponse,
    stream: StreamOptions,
    source: EmissionSource,
    controller: { abort(reason: unknown): void },
    origin: 'live' | 'replay' = 'live',
  ): Promise<void> {
    const maxPendingBytes = stream.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    // An overrun fails the stream and aborts the request (its upstream call is pointless now).
    const onOverflow = (error: StreamOverflowError): void => {
      pump.fail(error);
      controller.abort(error);
    };
    const emissions = source(maxPendingBytes, onOverflow);
    const format =
      stream.format !== 'ui-message'
        ? undefined
        : origin === 'replay'
          ? uiMessageReplay(res, emissions)
          : uiMessageStream(res, emissions, maxPendingBytes, onOverflow);
    const pump: SsePump = new SsePump(format?.emissions ?? emissions, res, {
      heartbeatMs: (stream.heartbeat ?? this.config.app.sse_heartbeat) * 1000,
      maxPendingBytes,
      onOverflow,
      describeError: this.describeError,
      onLateError: (error) => {
        reportFailure(error);
        logFailure(
          this.logger,
          `Stream failed (${req.method} ${req.originalUrl ?? req.url})`,
          error,
        );
      },
      frame: format?.frame,
      errorFrame: format?.errorFrame,
      // An `EventSource` (GET only) reconnects once a stream is over. A resumable stream answers
      // that reconnect from its log; fetch-based clients (POST) and the AI SDK do not reconnect.
      endMarker: !stream.resumable && format === undefined && req.method === 'GET',
    });
    const done = pump.run();
    this.streams.track(pump, controller, done);
    try {
      await done;
    } finally {
      controller.abort(STREAM_ENDED);
    }
  }
}

/** The chunks of a cached stream route: keyed by the request's bound parameters. */
async function* cachedStream(
  cache: RouteCache,
  options: CacheOptions,
  req: StreamRequest,
  res: CachedResponse,
  handler: object,
  chunks: AsyncGenerator<unknown>,
  maxBytes: number,
): AsyncGenerator<unknown> {
  const params = await bindRequest(req, res.platform.rawResponse(res.reply), handler);
  const key = cache.keyOf(req, res.platform, params, options);
  if (key === undefined) yield* chunks;
  else yield* cache.stream(key, cache.ttlOf(options), res, chunks, maxBytes);
}
