import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTelemetryTracer, installTracer } from '../../../providers/src/index.js';
import type { TelemetrySettings } from '../config/toolkit-config.interface.js';
import type { AppInfo } from '../health/app-info.js';
import { onAppShutdown } from './app-shutdown-tasks.js';
import { traceWithHttpInstrumentation } from './http-instrumentation.js';
import { installServerSpans } from './http-server-span.js';
import { loadPeer } from './load-peer.js';
import { leaseTraceProvider } from './trace-provider.js';
import type { HttpAdapter } from './tracing-switch.js';

/** How the HTTP server spans of an app are made. */
export type ServerSpanSource = 'instrumentation-http' | 'toolkit';

/** Options of {@link installTracing}. */
export interface InstallTracingOptions {
  /** The app's name and version (`service.version`; the name when nothing else names it). */
  app: AppInfo;
  /** Add toolkit's request hooks (call before `init()`): see `installServerSpans`. */
  requestHooks: boolean;
}

/** Apps of the process tracing now: toolkit's tracer stays installed while one is. */
let tracingApps = 0;
/** The platform instances of the apps traced, so that an app is installed once. */
const traced = new WeakSet<object>();

/**
 * Exports the traces of the app served by `adapter` over OTLP/HTTP (`telemetry.enabled`): uses the tracer provider the
 * app registered, else builds and registers one (see `leaseTraceProvider`); gives every request
 * an HTTP server span (OpenTelemetry's HTTP instrumentation when installed and
 * `telemetry.http_instrumentation` is on, else toolkit's, see `installServerSpans`) and sends toolkit's spans (LLM calls, tools, memory, cache) to the
 * provider, with content only under `telemetry.record_content`. When the app closes, the last
 * spans are flushed and toolkit's provider shut down. With `requestHooks`, call after
 * `configureNestApp`, before `init()`. A second call for the same app does nothing.
 *
 * @returns how the server spans are made (`undefined`: the app was traced already)
 */
export async function installTracing(
  adapter: HttpAdapter,
  settings: TelemetrySettings,
  { app, requestHooks }: InstallTracingOptions,
): Promise<ServerSpanSource | undefined> {
  const instance = adapter.getInstance<object>();
  if (traced.has(instance)) return undefined;
  traced.add(instance);
  const api = await loadPeer('@opentelemetry/api', () => import('@opentelemetry/api'));
  const lease = await leaseTraceProvider(api, {
    serviceName: serviceName(settings, app),
    serviceVersion: app.version,
  });
  // With a provider of the app's own, so are its instrumentations: toolkit adds none.
  const server = adapter.getHttpServer() as object;
  const source: ServerSpanSource =
    lease.own && settings.http_instrumentation && (await traceWithHttpInstrumentation(api, server))
      ? 'instrumentation-http'
      : 'toolkit';
  if (requestHooks) installServerSpans(adapter, api);
  installTracer(await openTelemetryTracer({ recordContent: settings.record_content }));
  tracingApps += 1;
  onAppShutdown(instance, async () => {
    tracingApps -= 1;
    if (tracingApps === 0) installTracer(undefined);
    await lease.release();
  });
  return source;
}

/** `telemetry.service_name`, else `OTEL_SERVICE_NAME`, else the package's name, else the app's. */
function serviceName(settings: TelemetrySettings, info: AppInfo): string {
  if (settings.service_name !== '') return settings.service_name;
  const fromEnv = process.env.OTEL_SERVICE_NAME?.trim();
  if (fromEnv) return fromEnv;
  return packageName() ?? info.name;
}

/** The `name` in the working directory's `package.json` (the app's, when it was started there). */
function packageName(): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {
      name?: unknown;
    };
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}
