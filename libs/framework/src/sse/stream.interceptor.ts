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
import { enterRoute } from '../routing/bind-request.js';
import { deferAbortController, mayReadSignalEarly } from '../routing/request-signal.js';
import { routeInfo } from '../routing/route-info.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { ResumableStreams } from './resumable-streams.js';
import { SsePump } from './sse-pump.js';
import { DEFAULT_MAX_PENDING_BYTES, type StreamOptions } from './stream-options.js';
import { reconnectsAfterEnd, resumesStream } from './stream-position.js';
import { createStreamLog } from './stream-log.factory.js';
import { StreamRegistry } from './stream-registry.js';
import { handlerOutput, observableIterator, type StreamOverflowError } from './stream-source.js';
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

const ACTIVE_PUMP = Symbol('toolkit:active-pump');
type PumpCarrier = { [ACTIVE_PUMP]?: SsePump };

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
 * Fails the stream this request is answering, e.g. when an Observable inside `@Cache` overran its
 * bound while the pump waits for a slow client. Does nothing when the request streams nothing.
 */
export function failActiveStream(req: object, error: unknown): void {
  (req as PumpCarrier)[ACTIVE_PUMP]?.fail(error);
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
 * The interceptor behind `@Stream()`: streams what the handler produces as Server-Sent Events,
 * written straight to the response (the adapter's reply then has nothing left to send). It is
 * the outermost of a method's interceptors, so `@Cache` and the method's own interceptors see
 * the raw chunks.
 *
 * In a module that does not import `ToolkitModule` (a controller's unit test) it runs on its own:
 * the configuration's defaults (see `standaloneConfig`) and a stream registry and resumable-stream
 * log of its own, in memory, which it stops when the application shuts down.
 */
@Injectable()
export class StreamInterceptor implements NestInterceptor, OnApplicationShutdown {
  /** Position among toolkit's method interceptors: first, i.e. outermost. */
  static readonly toolkitOrder = 0;
  private readonly logger = new Logger('toolkit');
  private readonly config: ToolkitConfig;
  private readonly streams: StreamRegistry;
  private readonly resumables: ResumableStreams;
  /** Which of the registry and the resumable streams are this interceptor's own. */
  private readonly owns: { streams: boolean; resumables: boolean };

  constructor(
    @Optional() @Inject(TOOLKIT_CONFIG) config?: ToolkitConfig,
    @Optional() @Inject(StreamRegistry) streams?: StreamRegistry,
    @Optional() @Inject(ResumableStreams) resumables?: ResumableStreams,
  ) {
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
      const source = this.resumables.open(req, res, next.handle(), {
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
      start = () =>
        this.pumped(
          req,
          res,
          stream,
          (bound, onOverflow) => observableIterator(next.handle(), bound, onOverflow),
          controller,
        );
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
   * Streams what `call` returns on a route whose only interceptor is this one, without Nest's
   * interceptor pipeline (see {@link DirectStreams}, which reads the route's `stream` options
   * once): the same checks, in the same order, then the same pump. Resolves once the stream is over; rejects, before anything was sent, with what
   * the exception filter should answer.
   */
  streamDirect(
    handler: object,
    stream: StreamOptions,
    reply: object,
    call: () => unknown,
  ): Promise<void> {
    const platform = platformOfResponse(reply);
    const req = platform.requestOf(reply) as StreamRequest;
    if (reconnectsAfterEnd(req)) {
      answerEnded(reply);
      return Promise.resolve();
    }
    enterRoute(req, reply as ServerResponse, handler);
    this.streams.admit();
    const returned = call();
    const res = platform.takeOver(reply);
    const controller = deferAbortController(req, res, false);
    return this.pumped(
      req,
      res,
      stream,
      (bound, onOverflow) => handlerOutput(returned, bound, onOverflow),
      controller,
    );
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
    (req as PumpCarrier)[ACTIVE_PUMP] = pump;
    const done = pump.run();
    this.streams.track(pump, controller, done);
    try {
      await done;
    } finally {
      controller.abort(STREAM_ENDED);
    }
  }
}
