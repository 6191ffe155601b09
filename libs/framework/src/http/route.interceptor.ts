import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { MethodNotAllowedError } from '../../../providers/src/errors/index.js';
import type { ToolkitConfig } from '../config/toolkit-config.interface.js';
import { BOUND_PARAMS, type BoundRequest } from '../routing/arg.decorator.js';
import { bindParams, mergeInputs, type RequestInputs } from '../routing/param-binder.js';
import { requestSignal } from '../routing/request-signal.js';
import { pumpSse } from '../sse/sse-pump.js';
import { observableIterator } from '../sse/stream-source.js';
import { TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { publicMessage } from './error-response.js';
import { routeInfo } from './route-info.js';
import { sendResult } from './send-result.js';

/**
 * Runs every `@Route`/`@Stream` handler (registered globally by `ToolkitModule`, so it is the
 * outermost interceptor and method-level ones such as `@Cache` see the raw return value). It
 * enforces the method list, binds and checks parameters, then writes the answer: plain results
 * by toolkit's return rules, streams as SSE. Plain Nest routes pass through untouched.
 */
@Injectable()
export class ToolkitRouteInterceptor implements NestInterceptor {
  private readonly logger = new Logger('toolkit');

  constructor(@Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const info = routeInfo(context.getHandler());
    if (!info) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request & BoundRequest>();
    const res = http.getResponse<Response>();

    if (
      info.methods &&
      !info.methods.includes(req.method) &&
      !(req.method === 'HEAD' && info.methods.includes('GET'))
    ) {
      throw new MethodNotAllowedError(info.methods);
    }
    // Express 5 parses the query string on every read of `req.query`: only when a parameter
    // is looked for there (most POST routes never do), and once.
    let query: Record<string, unknown> | undefined;
    const inputs: RequestInputs = {
      method: req.method,
      path: req.params ?? {},
      get query() {
        return (query ??= req.query ?? {});
      },
      body: req.body,
    };
    req[BOUND_PARAMS] = info.params ? bindParams(info.params, inputs) : mergeInputs(inputs);

    if (info.stream) {
      requestSignal(req, res);
      const heartbeat = info.stream.heartbeat ?? this.config.app.sse_heartbeat;
      return from(
        pumpSse(observableIterator(next.handle()), res, {
          heartbeatMs: heartbeat * 1000,
          describeError: (error) => publicMessage(error, this.config.app.debug),
          onLateError: (error) =>
            this.logger.error(`Stream failed (${req.method} ${req.originalUrl})`, error),
        }),
      );
    }
    return from(
      lastValueFrom(next.handle(), { defaultValue: undefined }).then((result) =>
        sendResult(res, result),
      ),
    );
  }
}
