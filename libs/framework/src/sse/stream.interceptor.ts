import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Observable } from 'rxjs';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { publicMessage } from '../http/error-response.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { enterRoute } from '../routing/bind-request.js';
import { deferAbortController, mayReadSignalEarly } from '../routing/request-signal.js';
import { routeInfo } from '../routing/route-info.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { ResumableStreams } from './resumable-streams.js';
import { SsePump } from './sse-pump.js';
import { DEFAULT_MAX_PENDING_BYTES, type StreamOptions } from './stream-options.js';
import { StreamRegistry } from './stream-registry.js';
import { observableIterator, type StreamOverflowError } from './stream-source.js';

/**
 * The abort reason once a stream is over (Nest's `@SseSignal()` contract: the signal aborts when
 * the stream ends, however it ended). One shared instance: building an error per stream costs a
 * stack trace each time.
 */
const STREAM_ENDED = new Error('The stream ended');
STREAM_ENDED.name = 'StreamEndedError';

const ACTIVE_PUMP = Symbol('toolkit:active-pump');
type PumpCarrier = { [ACTIVE_PUMP]?: SsePump };

/** What the interceptor reads of the platform's request. */
type StreamRequest = IncomingMessage & { originalUrl?: string };

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
    const req = http.getRequest<StreamRequest>();
    const reply = http.getResponse<object>();
    enterRoute(req, reply as ServerResponse, handler);
    this.streams.admit();
    // From here on the stream writes the Node response itself (Fastify: the reply is hijacked).
    const res = platformOfResponse(reply).takeOver(reply);
    const maxPendingBytes = stream.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    if (stream.resumable) {
      const source = this.resumables.open(req, res, next.handle(), {
        ...(typeof stream.resumable === 'object' ? stream.resumable : {}),
        maxPendingBytes,
        describeError: this.describeError,
      });
      return this.pumped(req, res, stream, source.events, source.controller);
    }
    const controller = deferAbortController(
      req,
      res,
      mayReadSignalEarly(context.getClass(), handler),
    );
    return this.pumped(req, res, stream, next.handle(), controller);
  }

  private readonly describeError = (error: unknown): string =>
    publicMessage(error, this.config.app.debug);

  /** Streams `source` into the response; `controller` aborts when the stream is over. */
  private pumped(
    req: StreamRequest,
    res: ServerResponse,
    stream: StreamOptions,
    source: Observable<unknown> | AsyncIterator<unknown>,
    controller: { abort(reason: unknown): void },
  ): Observable<unknown> {
    const maxPendingBytes = stream.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    // An overrun fails the stream and aborts the request (its upstream call is pointless now).
    const onOverflow = (error: StreamOverflowError): void => {
      pump.fail(error);
      controller.abort(error);
    };
    const emissions =
      source instanceof Observable
        ? observableIterator(source, maxPendingBytes, onOverflow)
        : source;
    const pump: SsePump = new SsePump(emissions, res, {
      heartbeatMs: (stream.heartbeat ?? this.config.app.sse_heartbeat) * 1000,
      maxPendingBytes,
      onOverflow,
      describeError: this.describeError,
      onLateError: (error) =>
        this.logger.error(`Stream failed (${req.method} ${req.originalUrl ?? req.url})`, error),
    });
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
}
