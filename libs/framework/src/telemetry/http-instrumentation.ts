import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { isNotFound } from './load-peer.js';

/** The servers of toolkit apps: the only ones whose requests the instrumentation traces. */
const servers = new WeakSet<object>();
/** One instrumentation per process: a second one would wrap `Server.prototype.emit` again. */
let enabled: Promise<HttpInstrumentation | undefined> | undefined;

/**
 * Has OpenTelemetry's HTTP instrumentation (`@opentelemetry/instrumentation-http`, an optional
 * peer) make the server span of every request `server` receives, with the globally registered
 * tracer provider; the request is then handled with that span active, and an incoming
 * `traceparent` continues its trace. Outgoing requests are left alone (toolkit's LLM spans
 * describe them), as are the requests of other servers in the process.
 *
 * @returns false when the instrumentation is not installed
 * @example
 * if (!(await traceWithHttpInstrumentation(api, nest.getHttpServer()))) useToolkitServerSpans();
 */
export async function traceWithHttpInstrumentation(
  api: typeof OpenTelemetryApi,
  server: object,
): Promise<boolean> {
  enabled ??= enable();
  const instrumentation = await enabled;
  if (!instrumentation) return false;
  // The global provider may have been replaced since (an earlier app closed): follow it.
  instrumentation.setTracerProvider(api.trace.getTracerProvider());
  servers.add(server);
  return true;
}

async function enable(): Promise<HttpInstrumentation | undefined> {
  let loaded: typeof import('@opentelemetry/instrumentation-http');
  try {
    loaded = await import('@opentelemetry/instrumentation-http');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  const instrumentation = new loaded.HttpInstrumentation({
    enabled: false,
    disableOutgoingRequestInstrumentation: true,
    ignoreIncomingRequestHook: (request: IncomingMessage) =>
      !servers.has((request.socket as { server?: object }).server ?? {}),
  });
  instrumentation.enable();
  // `http` was loaded long ago (Nest did): the instrumentation patches it when it is required
  // again through require-in-the-middle, which hooks CommonJS `require`; `createRequire` makes
  // that happen from our ES module too.
  const http: unknown = createRequire(import.meta.url)('node:http');
  // Loaders that keep a module registry of their own (jest's) never call that hook: patch
  // directly. The instrumentation patches `http` once, whichever way comes first.
  for (const definition of instrumentation.getModuleDefinitions()) {
    if (definition.name === 'http') definition.patch?.(http);
  }
  return instrumentation;
}
