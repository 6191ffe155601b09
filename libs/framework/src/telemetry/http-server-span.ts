import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import type { HttpAdapter } from './tracing-switch.js';
import type { HttpPlatform } from '../http/platform/http-platform.js';
import { platformOf } from '../http/platform/platform-of.js';
import { currentRequestId } from '../logging/request-context.js';

type Api = typeof OpenTelemetryApi;

/** The attribute holding the request's id (its `X-Request-Id`). */
export const REQUEST_ID_ATTRIBUTE = 'toolkit.request.id';

/**
 * Gives every request served by `adapter` its HTTP server span: the one already active (made by
 * OpenTelemetry's HTTP instrumentation, ours or the app's) gets the request id and, once
 * answered, the matched route (`http.route`, and the name `{METHOD} {route}`); without one,
 * toolkit starts a SERVER span itself (continuing an incoming `traceparent`) and handles the
 * request with it active, so that the spans of the request (LLM calls, memory, cache) nest under
 * it. Unmatched requests keep the name `{METHOD}` and no route: never the raw path. Call after
 * `configureNestApp` (the request id must be known), before `init()`.
 */
export function installServerSpans(adapter: HttpAdapter, api: Api): void {
  const platform = platformOf(adapter);
  const instance = adapter.getInstance<object>();
  const tracer = api.trace.getTracer('toolkit');
  /** The context of each request toolkit made a span for, entered again after body parsing. */
  const contexts = new WeakMap<IncomingMessage, OpenTelemetryApi.Context>();
  platform.addRequestHook(instance, 'start', (req, res, next) => {
    const raw = platform.rawRequest(req);
    const rawRes = platform.rawResponse(res);
    const method = raw.method ?? 'GET';
    const active = api.trace.getSpan(api.context.active());
    if (active) {
      active.setAttribute(REQUEST_ID_ATTRIBUTE, currentRequestId() ?? '');
      // Before the instrumentation's own listener, which ends the span.
      rawRes.prependListener('close', () => nameByRoute(active, method, platform, req));
      return next();
    }
    const parent = api.propagation.extract(api.ROOT_CONTEXT, raw.headers);
    const span = tracer.startSpan(
      method,
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.path': platform.requestPath(req),
          'url.scheme': 'http',
          [REQUEST_ID_ATTRIBUTE]: currentRequestId() ?? '',
        },
      },
      parent,
    );
    const context = api.trace.setSpan(parent, span);
    contexts.set(raw, context);
    rawRes.once('close', () => {
      nameByRoute(span, method, platform, req);
      span.setAttribute('http.response.status_code', rawRes.statusCode);
      if (rawRes.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    });
    api.context.with(context, next);
  });
  // Body parsers go on in callbacks of the socket, outside the span's context.
  platform.addRequestHook(instance, 'route', (req, _res, next) => {
    const context = contexts.get(platform.rawRequest(req));
    if (context) api.context.with(context, next);
    else next();
  });
}

/** `http.route` and the name `{METHOD} {route}` once the route is known (answered). */
function nameByRoute(
  span: OpenTelemetryApi.Span,
  method: string,
  platform: HttpPlatform,
  req: object,
): void {
  const route = platform.routePath(req);
  if (route === undefined) return;
  span.setAttribute('http.route', route);
  span.updateName(`${method} ${route}`);
}
