import type { INestApplication } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { UsageReport } from '../../../providers/src/index.js';
import type { TelemetrySettings } from '../config/toolkit-config.interface.js';
import { platformOf } from '../http/platform/platform-of.js';
import { currentRequest } from '../logging/request-context.js';
import { ResumableStreams } from '../sse/resumable-streams.js';
import { StreamRegistry } from '../sse/stream-registry.js';
import { EXPOSITION_CONTENT_TYPE } from './exposition-format.js';
import type { RequestFailure } from './request-failure.js';
import { ToolkitMetrics, type HttpRequestSample } from './toolkit-metrics.js';

/** Where the metrics are served. */
export const METRICS_PATH = '/metrics';

/**
 * Measures every request of `nest` and serves `GET /metrics` (Prometheus text format) ahead of
 * its routes, answering 401 without `Authorization: Bearer <telemetry.metrics_token>` when a
 * token is set. LLM usage reports of a request (through `recordRequestUsage`) feed the gen_ai
 * metrics; its budget refusals and backend failures (through `reportFailure`), toolkit's counters.
 * Call after `configureNestApp` (its request context must come first), before `init()`.
 */
export function installMetrics(
  nest: INestApplication,
  settings: TelemetrySettings,
): ToolkitMetrics {
  const platform = platformOf(nest.getHttpAdapter());
  const streams = nest.get(StreamRegistry, { strict: false });
  const resumable = nest.get(ResumableStreams, { strict: false });
  const metrics = new ToolkitMetrics(
    { openStreams: () => streams.size, runningResumable: () => resumable.running },
    { costByUser: settings.metrics_cost_by_user },
  );
  const expected = settings.metrics_token === '' ? undefined : `Bearer ${settings.metrics_token}`;
  const instance = nest.getHttpAdapter().getInstance() as object;
  // Made once, not per request: a request's hook adds one small listener and shares these.
  const onUsage = (report: UsageReport): void => metrics.recordUsage(report);
  const onFailure = (failure: RequestFailure): void => metrics.recordFailure(failure);
  function measured(req: object, res: object, startedAt: number, isMetrics: boolean): void {
    const header = platform.getHeader(res, 'X-Cache');
    const cache = typeof header === 'string' ? header.toLowerCase() : undefined;
    const sample: HttpRequestSample = {
      method: platform.rawRequest(req).method ?? 'GET',
      route: isMetrics ? METRICS_PATH : platform.routePath(req),
      status: platform.rawResponse(res).statusCode,
      durationSeconds: (performance.now() - startedAt) / 1000,
    };
    if (cache === 'hit' || cache === 'miss') sample.cache = cache;
    metrics.recordRequest(sample);
  }
  platform.addRequestHook(instance, 'start', (req, res, next) => {
    const raw = platform.rawRequest(req);
    const startedAt = performance.now();
    const isMetrics = isMetricsPath(raw.url) && platform.requestPath(req) === METRICS_PATH;
    // `on`, not `once`: a response closes once, and `once` wraps every listener it adds.
    platform.rawResponse(res).on('close', () => measured(req, res, startedAt, isMetrics));
    const context = currentRequest();
    if (context) {
      context.onUsage = onUsage;
      context.onFailure = onFailure;
    }
    if (!isMetrics || (raw.method !== 'GET' && raw.method !== 'HEAD')) return next();
    if (expected !== undefined && !sameSecret(raw.headers.authorization ?? '', expected)) {
      platform.setHeader(res, 'WWW-Authenticate', 'Bearer realm="metrics"');
      return platform.sendJson(res, 401, { error: 'Unauthorized' });
    }
    platform.setHeader(res, 'Cache-Control', 'no-store');
    platform.send(res, 200, metrics.registry.render(), EXPOSITION_CONTENT_TYPE);
  });
  return metrics;
}

/**
 * Whether `url` may be `GET /metrics`: a cheap test first, so other requests skip parsing their
 * path (an absolute-form URL, not starting with `/`, is left to the platform to parse).
 */
function isMetricsPath(url: string | undefined): boolean {
  return url === undefined || !url.startsWith('/') || url.startsWith(METRICS_PATH);
}

/** Compares in constant time (digests, so lengths do not show either). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
