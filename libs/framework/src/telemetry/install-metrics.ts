import type { INestApplication } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { TelemetrySettings } from '../config/toolkit-config.interface.js';
import { platformOf } from '../http/platform/platform-of.js';
import { currentRequest } from '../logging/request-context.js';
import { ResumableStreams } from '../sse/resumable-streams.js';
import { StreamRegistry } from '../sse/stream-registry.js';
import { EXPOSITION_CONTENT_TYPE } from './exposition-format.js';
import { ToolkitMetrics } from './toolkit-metrics.js';

/** Where the metrics are served. */
export const METRICS_PATH = '/metrics';

/**
 * Measures every request of `nest` and serves `GET /metrics` (Prometheus text format) ahead of
 * its routes, answering 401 without `Authorization: Bearer <telemetry.metrics_token>` when a
 * token is set. LLM usage reports of a request (through `recordRequestUsage`) feed the gen_ai
 * metrics. Call after `configureNestApp` (its request context must come first), before `init()`.
 */
export function installMetrics(
  nest: INestApplication,
  settings: TelemetrySettings,
): ToolkitMetrics {
  const platform = platformOf(nest.getHttpAdapter());
  const streams = nest.get(StreamRegistry, { strict: false });
  const resumable = nest.get(ResumableStreams, { strict: false });
  const metrics = new ToolkitMetrics({
    openStreams: () => streams.size,
    runningResumable: () => resumable.running,
  });
  const expected = settings.metrics_token === '' ? undefined : `Bearer ${settings.metrics_token}`;
  const instance = nest.getHttpAdapter().getInstance() as object;
  platform.addRequestHook(instance, 'start', (req, res, next) => {
    const raw = platform.rawRequest(req);
    const rawRes = platform.rawResponse(res);
    const startedAt = performance.now();
    const isMetrics = platform.requestPath(req) === METRICS_PATH;
    rawRes.once('close', () => {
      const header = platform.getHeader(res, 'X-Cache');
      const cache = typeof header === 'string' ? header.toLowerCase() : undefined;
      metrics.recordRequest({
        method: raw.method ?? 'GET',
        route: isMetrics ? METRICS_PATH : platform.routePath(req),
        status: rawRes.statusCode,
        durationSeconds: (performance.now() - startedAt) / 1000,
        ...(cache === 'hit' || cache === 'miss' ? { cache } : {}),
      });
    });
    const context = currentRequest();
    if (context) context.onUsage = (report) => metrics.recordUsage(report);
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

/** Compares in constant time (digests, so lengths do not show either). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
