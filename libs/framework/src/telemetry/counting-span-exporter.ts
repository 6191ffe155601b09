import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { countDroppedSpans } from './dropped-spans.js';

type ExportDone = Parameters<SpanExporter['export']>[1];

/** `ExportResultCode.SUCCESS`, without loading `@opentelemetry/core` for one constant. */
const EXPORT_SUCCESS = 0 as ExportResultCode.SUCCESS;
/** The SDK's own count of processed spans (OpenTelemetry's SDK self-observability metrics). */
const PROCESSED_SPANS = 'otel.sdk.processor.span.processed';

/**
 * Wraps `exporter` so that every span of a failed export (endpoint unreachable, timed out,
 * answered an error) is counted in `droppedSpanCount()`.
 *
 * @example
 * new BatchSpanProcessor(countingExporter(new OTLPTraceExporter()));
 */
export function countingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: ExportDone): void {
      exporter.export(spans, (result) => {
        if (result.code !== EXPORT_SUCCESS) countDroppedSpans(spans.length);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * A meter provider for a `BatchSpanProcessor`'s `selfObsMeterProvider` option that counts the
 * spans it drops because its queue is full (`error.type: queue_full`) in `droppedSpanCount()`;
 * every other instrument is a no-op. (Failed exports are counted by {@link countingExporter}.)
 *
 * @example
 * new BatchSpanProcessor(exporter, { maxQueueSize: 2048, selfObsMeterProvider: queueDropMeter(api) });
 */
export function queueDropMeter(api: typeof OpenTelemetryApi): OpenTelemetryApi.MeterProvider {
  const noop = api.createNoopMeter();
  const meter: OpenTelemetryApi.Meter = Object.create(noop) as OpenTelemetryApi.Meter;
  meter.createCounter = <A extends OpenTelemetryApi.Attributes>(
    name: string,
    options?: OpenTelemetryApi.MetricOptions,
  ): OpenTelemetryApi.Counter<A> => {
    if (name !== PROCESSED_SPANS) return noop.createCounter<A>(name, options);
    return {
      add(value: number, attributes?: A): void {
        if (attributes?.['error.type'] === 'queue_full') countDroppedSpans(value);
      },
    };
  };
  return { getMeter: () => meter };
}
