import { Logger, type INestApplication } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { TelemetrySettings, ToolkitConfig } from '../config/toolkit-config.interface.js';
import type { AppInfo } from '../health/app-info.js';
import { APP_INFO, TOOLKIT_CONFIG } from '../toolkit.constants.js';
import { isNotFound } from './load-peer.js';
import type { InstallTracingOptions } from './install-tracing.js';

/** The HTTP adapter of a Nest application (`nest.getHttpAdapter()`, `HttpAdapterHost`). */
export type HttpAdapter = Pick<AbstractHttpAdapter, 'getInstance' | 'getHttpServer' | 'getType'>;

/** The environment variables that decide whether traces are exported. */
export type TracingEnv = Readonly<Record<string, string | undefined>>;

/**
 * Whether traces are exported: `telemetry.enabled`, or an OTLP endpoint in the environment
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` says otherwise (OpenTelemetry's own
 * switches win).
 *
 * @example
 * tracingWanted({ ...telemetry, enabled: false }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }); // true
 */
export function tracingWanted(
  settings: Pick<TelemetrySettings, 'enabled'>,
  env: TracingEnv = process.env,
): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  const endpoint = (name: string): boolean => (env[name]?.trim() ?? '') !== '';
  return (
    settings.enabled ||
    endpoint('OTEL_EXPORTER_OTLP_ENDPOINT') ||
    endpoint('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
  );
}

/**
 * Installs tracing on `nest` when it is wanted (`tracingWanted`, see `installTracing`),
 * loading its code and `@opentelemetry/*` only then: an app without it pays nothing. Call after
 * `configureNestApp`, before `init()`.
 */
export async function installTracingWhenOn(nest: INestApplication): Promise<void> {
  const config = nest.get<ToolkitConfig>(TOOLKIT_CONFIG);
  if (!tracingWanted(config.telemetry)) return;
  await install(nest.getHttpAdapter(), config.telemetry, {
    app: nest.get<AppInfo>(APP_INFO, { strict: false }),
    requestHooks: true,
  });
}

/**
 * The same in an application of the user's own that imports `ToolkitModule` (its lifecycle
 * calls it at module init, when `App` has not installed tracing already): toolkit's spans go to
 * the tracer provider the application registered (or to one toolkit builds, with OpenTelemetry's
 * HTTP instrumentation for the server spans), flushed when it closes. The request hooks (route
 * names, request ids on server spans) are `App`'s only: by then the routes are registered.
 */
export async function installHostTracingWhenOn(
  adapter: HttpAdapter | undefined,
  config: ToolkitConfig,
  app: AppInfo,
): Promise<void> {
  if (!adapter || !tracingWanted(config.telemetry)) return;
  await install(adapter, config.telemetry, { app, requestHooks: false });
}

/**
 * Installs tracing. A missing `@opentelemetry` package fails start-up when `telemetry.enabled`
 * asked for traces; when only an `OTEL_*` variable did (set for every process of a host, say),
 * the app starts untraced, with a warning.
 */
async function install(
  adapter: HttpAdapter,
  settings: TelemetrySettings,
  options: InstallTracingOptions,
): Promise<void> {
  try {
    const { installTracing } = await import('./install-tracing.js');
    await installTracing(adapter, settings, options);
  } catch (error) {
    const missing = isNotFound((error as { cause?: unknown } | null)?.cause);
    if (settings.enabled || !missing) throw error;
    new Logger('Telemetry').warn(`${(error as Error).message}; traces are off`);
  }
}
