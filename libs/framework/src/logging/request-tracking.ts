import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppSettings } from '../config/toolkit-config.interface.js';
import type { HttpPlatform } from '../http/platform/http-platform.js';
import { AccessLogRecord, type AccessLogFields } from './access-log-record.js';
import { runInRequest, type RequestContext } from './request-context.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { requestsWatched, tellRequestWatchers } from './request-watchers.js';
import { meterResponse } from './response-meter.js';

/** The settings request tracking reads. */
export type RequestTrackingSettings = Pick<AppSettings, 'trust_proxy' | 'access_log'>;

/** Platform apps already tracked: `App` installs it first, a `ToolkitModule` option would again. */
const tracked = new WeakSet<object>();
/** The context of each request, found again after body parsing. */
const contexts = new WeakMap<IncomingMessage, RequestContext>();

/**
 * Gives every request of `instance` (the platform's app) an id: its answer carries it in
 * `X-Request-Id`, and everything done for it, its logs included, runs in its request context
 * (`currentRequestId()`). With `app.access_log`, one {@link AccessLogRecord} is logged (context
 * `Access`) once the answer is over; `watchRequests` watchers get its fields either way. Installs
 * a `start` hook, and a `route` hook that enters the context again after body parsing (a body is
 * read in callbacks of the socket, outside it). Nothing happens on a second call for the same app.
 *
 * @returns the `route` hook installer, for callers (Express) that must add it after their body
 *   parsers; call it once
 */
export function trackRequests(
  instance: object,
  platform: HttpPlatform,
  settings: RequestTrackingSettings,
): (() => void) | undefined {
  if (tracked.has(instance)) return undefined;
  tracked.add(instance);
  const logger = new Logger('Access');
  platform.addRequestHook(instance, 'start', (req, res, next) => {
    const raw = platform.rawRequest(req);
    const id = requestIdFor(raw.headers['x-request-id'], settings.trust_proxy);
    const rawRes = platform.rawResponse(res);
    rawRes.setHeader(REQUEST_ID_HEADER, id);
    const context: RequestContext = { id };
    contexts.set(raw, context);
    if (settings.access_log || requestsWatched()) {
      logWhenOver(platform, req, raw, rawRes, context, settings.access_log ? logger : undefined);
    }
    runInRequest(context, next);
  });
  return () =>
    platform.addRequestHook(instance, 'route', (req, _res, next) => {
      const context = contexts.get(platform.rawRequest(req));
      if (context) runInRequest(context, next);
      else next();
    });
}

function logWhenOver(
  platform: HttpPlatform,
  req: object,
  raw: IncomingMessage,
  res: ServerResponse,
  context: RequestContext,
  logger: Logger | undefined,
): void {
  const startedAt = performance.now();
  const meter = meterResponse(res);
  let finished = false;
  res.once('finish', () => (finished = true));
  res.once('close', () => {
    const usage = context.usage;
    const streamed = String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
    const fields: AccessLogFields = {
      requestId: context.id,
      method: raw.method ?? 'GET',
      route: platform.routePath(req) ?? null,
      status: res.statusCode,
      durationMs: Math.round(performance.now() - startedAt),
      bytes: meter.bytes,
      ...(streamed && meter.firstByteAt !== undefined
        ? { firstByteMs: Math.round(meter.firstByteAt - startedAt) }
        : {}),
      ...(finished ? {} : { aborted: true }),
      ...(usage
        ? {
            model: usage.model,
            provider: usage.provider,
            inputTokens: usage.inputTokens,
            outputTokens: usage.outputTokens,
            ...(usage.costUsd === undefined ? {} : { costUsd: usage.costUsd }),
            ...(usage.timeToFirstTokenMs === undefined
              ? {}
              : { timeToFirstTokenMs: Math.round(usage.timeToFirstTokenMs) }),
          }
        : {}),
    };
    if (logger) runInRequest(context, () => logger.log(new AccessLogRecord(fields)));
    tellRequestWatchers(fields);
  });
}
