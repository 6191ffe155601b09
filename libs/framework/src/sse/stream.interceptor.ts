import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable } from 'rxjs';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { publicMessage } from '../http/error-response.js';
import { enterRoute } from '../routing/bind-request.js';
import { deferAbortController, replaceAbortController } from '../routing/request-signal.js';
import { routeInfo } from '../routing/route-info.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { DEFAULT_RESUMABLE_TTL, ResumableStreams } from './resumable-streams.js';
import { SsePump } from './sse-pump.js';
import { DEFAULT_MAX_PENDING_BYTES, type StreamOptions } from './stream-options.js';
import { streamPosition } from './stream-position.js';
import { StreamRegistry } from './stream-registry.js';
import { observableIterator, streamChunks, type StreamOverflowError } from './stream-source.js';

/**
 * The abort reason once a stream is over (Nest's `@SseSignal()` contract: the signal aborts when
 * the stream ends, however it ended). One shared instance: building an error per stream costs a
 * stack trace each time.
 */
const STREAM_ENDED = new Error('The stream ended');
STREAM_ENDED.name = 'StreamEndedError';

const ACTIVE_PUMP = Symbol('toolkit:active-pump');
type PumpCarrier = Request & { [ACTIVE_PUMP]?: SsePump };

/**
 * Fails the stream this request is answering, e.g. when an Observable inside `@Cache` overran its
 * bound while the pump waits for a slow client. Does nothing when the request streams nothing.
 */
export function failActiveStream(req: object, error: unknown): void {
  (req as PumpCarrier)[ACTIVE_PUMP]?.fail(error);
}

/**
 * The interceptor behind `@Stream()`: streams what the handler produces as Server-Sent Events,
 * written straight to the response (the adapter's reply then has nothing left to send). It is
 * the outermost of a method's interceptors, so `@Cache` and the method's own interceptors see
 * the raw chunks.
 */
@Injectable()
export class StreamInterceptor implements NestInterceptor {
  /** Position among toolkit's method interceptors: first, i.e. outermost. */
  static readonly toolkitOrder = 0;
  private readonly logger = new Logger('toolkit');

  constructor(
    @Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig,
    private readonly streams: StreamRegistry,
    private readonly resumables: ResumableStreams,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handler = context.getHandler();
    const stream = routeInfo(handler)?.stream;
    if (context.getType() !== 'http' || !stream) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    enterRoute(req, res, handler);
    this.streams.admit();
    if (stream.resumable) return this.resumable(req, res, next, stream);
    const controller = deferAbortController(req, res);
    const maxPendingBytes = stream.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    // An overrun fails the stream and aborts the request (its upstream call is pointless now).
    const onOverflow = (error: StreamOverflowError): void => {
      pump.fail(error);
      controller.abort(error);
    };
    const pump: SsePump = new SsePump(
      observableIterator(next.handle(), maxPendingBytes, onOverflow),
      res,
      {
        heartbeatMs: (stream.heartbeat ?? this.config.app.sse_heartbeat) * 1000,
        maxPendingBytes,
        onOverflow,
        describeError: (error) => publicMessage(error, this.config.app.debug),
        onLateError: (error) =>
          this.logger.error(`Stream failed (${req.method} ${req.originalUrl})`, error),
      },
    );
    (req as PumpCarrier)[ACTIVE_PUMP] = pump;
    return new Observable((subscriber) => {
      const done = pump.run();
      this.streams.track(pump, controller, done);
      done.then(
        () => {
          controller.abort(STREAM_ENDED);
          subscriber.next(undefined);
          subscriber.complete();
        },
        (error: unknown) => {
          controller.abort(STREAM_ENDED);
          subscriber.error(error);
        },
      );
    });
  }

  /**
   * A resumable stream: a new request starts the producer in the background (detached from the
   * client) and reads its log; a request carrying `Last-Event-ID` reads the log from there
   * without running the handler.
   */
  private resumable(
    req: Request,
    res: Response,
    next: CallHandler,
    stream: StreamOptions,
  ): Observable<unknown> {
    const position = streamPosition(req);
    const options = typeof stream.resumable === 'object' ? stream.resumable : {};
    const ttlSeconds = options.ttl ?? DEFAULT_RESUMABLE_TTL;
    const maxPendingBytes = stream.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    const describeError = (error: unknown): string => publicMessage(error, this.config.app.debug);
    const reader = new AbortController();
    res.once('close', () => reader.abort());
    const id = position?.id ?? ResumableStreams.newId();
    res.setHeader('X-Stream-Id', id);
    const opened = position
      ? Promise.resolve()
      : this.startProducer(id, req, next, { ttlSeconds, maxPendingBytes, describeError });
    const events = async function* (streams: ResumableStreams): AsyncGenerator<unknown> {
      await opened;
      yield* streams.follow(id, position?.after ?? 0, reader.signal);
    };
    const pump: SsePump = new SsePump(events(this.resumables), res, {
      heartbeatMs: (stream.heartbeat ?? this.config.app.sse_heartbeat) * 1000,
      maxPendingBytes,
      onOverflow: (error) => pump.fail(error),
      describeError,
      onLateError: (error) =>
        this.logger.error(`Stream failed (${req.method} ${req.originalUrl})`, error),
    });
    (req as PumpCarrier)[ACTIVE_PUMP] = pump;
    return new Observable((subscriber) => {
      const done = pump.run();
      this.streams.track(pump, reader, done);
      done.then(
        () => {
          reader.abort();
          subscriber.next(undefined);
          subscriber.complete();
        },
        (error: unknown) => {
          reader.abort();
          subscriber.error(error);
        },
      );
    });
  }

  private startProducer(
    id: string,
    req: Request,
    next: CallHandler,
    options: { ttlSeconds: number; maxPendingBytes: number; describeError: (e: unknown) => string },
  ): Promise<void> {
    const controller = new AbortController();
    replaceAbortController(req, controller);
    const chunks = streamChunks(next.handle(), options.maxPendingBytes, (error) =>
      controller.abort(error),
    );
    return this.resumables.produce(id, chunks, controller, {
      ttlSeconds: options.ttlSeconds,
      describeError: options.describeError,
      onError: (error) =>
        this.logger.error(
          `Resumable stream ${id} failed (${req.method} ${req.originalUrl})`,
          error,
        ),
    });
  }
}
