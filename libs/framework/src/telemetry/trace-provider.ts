import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { BufferConfig, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { countingExporter, queueDropMeter } from './counting-span-exporter.js';
import { loadPeer } from './load-peer.js';

type Api = typeof OpenTelemetryApi;

/** How long closing the app waits for the last spans to reach the endpoint. */
const FLUSH_WAIT_MS = 5000;

/** What the spans of the provider toolkit builds say about the app. */
export interface TraceProviderOptions {
  /** `service.name`. */
  serviceName: string;
  /** `service.version`. */
  serviceVersion: string;
}

/** A use of the process's tracer provider; release it when the app closes. */
export interface TraceProviderLease {
  /** True when toolkit built and registered the provider (false: the app registered its own). */
  readonly own: boolean;
  /**
   * Ends this use. The last use of toolkit's provider flushes its spans (waiting at most a few
   * seconds for the endpoint), shuts it down and unregisters it; the app's own is left alone.
   */
  release(): Promise<void>;
}

/** Toolkit's provider, shared by the apps of the process that use it (one global per process). */
let shared: { users: number; shutdown: Promise<() => Promise<void>> } | undefined;

/**
 * Makes sure spans have somewhere to go: when no tracer provider is registered globally yet,
 * builds one (a `NodeTracerProvider` whose `BatchSpanProcessor`, bounded by `maxQueueSize`, sends
 * spans over OTLP/HTTP: protobuf, or JSON when `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and
 * registers it with the AsyncLocalStorage context manager and the W3C propagators. A provider
 * the app registered itself (e.g. `@opentelemetry/sdk-node`) is used as it is.
 *
 * @example
 * const lease = await leaseTraceProvider(api, { serviceName: 'shop', serviceVersion: '1.0.0' });
 * // ... serve ...
 * await lease.release();
 */
export async function leaseTraceProvider(
  api: Api,
  options: TraceProviderOptions,
): Promise<TraceProviderLease> {
  if (!shared && providerRegistered(api)) return { own: false, release: () => Promise.resolve() };
  // Set before the first await: apps starting together share one provider.
  shared ??= { users: 0, shutdown: registerProvider(api, options) };
  const lease = shared;
  lease.users += 1;
  try {
    await lease.shutdown;
  } catch (error) {
    if (shared === lease) shared = undefined;
    throw error;
  }
  let released = false;
  return {
    own: true,
    release: async () => {
      if (released) return;
      released = true;
      lease.users -= 1;
      if (lease.users > 0) return;
      if (shared === lease) shared = undefined;
      await (
        await lease.shutdown
      )();
    },
  };
}

/**
 * Whether a provider is registered globally: the API's global provider is a proxy whose delegate
 * the registered SDK provider is (duck-typed: the API's CommonJS and ES builds differ in class).
 */
function providerRegistered(api: Api): boolean {
  const global = api.trace.getTracerProvider() as Partial<OpenTelemetryApi.ProxyTracerProvider>;
  return typeof global.getDelegateTracer !== 'function' || !!global.getDelegateTracer('toolkit');
}

async function registerProvider(
  api: Api,
  { serviceName, serviceVersion }: TraceProviderOptions,
): Promise<() => Promise<void>> {
  const { NodeTracerProvider, BatchSpanProcessor } = await loadPeer(
    '@opentelemetry/sdk-trace-node',
    () => import('@opentelemetry/sdk-trace-node'),
  );
  const resources = await loadPeer(
    '@opentelemetry/resources',
    () => import('@opentelemetry/resources'),
  );
  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(
      resources.resourceFromAttributes({
        'service.name': serviceName,
        'service.version': serviceVersion,
      }),
    );
  // Bounded by `maxQueueSize` (2048, `OTEL_BSP_MAX_QUEUE_SIZE`). `selfObsMeterProvider` (not in
  // the shim's option type, passed through to the SDK's processor) is how it tells the spans it
  // drops when full; older SDKs ignore it, and only failed exports are counted there.
  const selfObservation: BufferConfig & { selfObsMeterProvider: OpenTelemetryApi.MeterProvider } = {
    selfObsMeterProvider: queueDropMeter(api),
  };
  const processor = new BatchSpanProcessor(countingExporter(await otlpExporter()), selfObservation);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  return async () => {
    // The last spans go out first; an unreachable endpoint only delays closing a little.
    await withinWait(provider.shutdown());
    api.trace.disable();
    api.context.disable();
    api.propagation.disable();
  };
}

/** The OTLP/HTTP exporter of `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`; it reads its own settings. */
async function otlpExporter(): Promise<SpanExporter> {
  const protocol =
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol?.trim() === 'http/json') {
    const { OTLPTraceExporter } = await loadPeer(
      '@opentelemetry/exporter-trace-otlp-http',
      () => import('@opentelemetry/exporter-trace-otlp-http'),
    );
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await loadPeer(
    '@opentelemetry/exporter-trace-otlp-proto',
    () => import('@opentelemetry/exporter-trace-otlp-proto'),
  );
  return new OTLPTraceExporter();
}

function withinWait(done: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FLUSH_WAIT_MS);
    timer.unref();
  });
  return Promise.race([done.catch(() => undefined), waited]).finally(() => clearTimeout(timer));
}
