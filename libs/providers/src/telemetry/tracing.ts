import type { TraceSpan, TraceSpanOptions, Tracer } from './tracer.interface.js';

/** The span handed out while tracing is off. */
const OFF_SPAN: TraceSpan = Object.freeze({
  recording: false,
  setAttributes: () => undefined,
  fail: () => undefined,
  end: () => undefined,
});

let installed: Tracer | undefined;

/**
 * Sends toolkit's spans (LLM calls, tool executions, embeddings, memory, cache, retrieval and
 * stream-log operations) to `tracer`, process-wide; `undefined` turns tracing off again. The
 * framework calls it when `telemetry.enabled` or `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
 *
 * @example
 * installTracer({ recordContent: false, startSpan: (name) => mySpan(name), withSpan: (_s, fn) => fn() });
 */
export function installTracer(tracer: Tracer | undefined): void {
  installed = tracer;
}

/** The installed tracer, if tracing is on. */
export function activeTracer(): Tracer | undefined {
  return installed;
}

/** Starts a span when tracing is on; otherwise returns a span that does nothing. */
export function startSpan(name: string, options?: TraceSpanOptions): TraceSpan {
  return installed === undefined ? OFF_SPAN : installed.startSpan(name, options);
}

/** Runs `fn` with `span` active when tracing is on (see `Tracer.withSpan`). */
export function withSpan<T>(span: TraceSpan, fn: () => T): T {
  return installed === undefined || !span.recording ? fn() : installed.withSpan(span, fn);
}

/**
 * Runs `fn` inside a new span, active while it runs: ended when `fn` settles, failed when it
 * throws. While tracing is off, `fn` runs with a span that does nothing, at the cost of one call.
 *
 * @example
 * const rows = await traced('toolkit.memory.load', { attributes: { 'toolkit.memory.backend': 'redis' } }, () => load());
 */
export async function traced<T>(
  name: string,
  options: TraceSpanOptions,
  fn: (span: TraceSpan) => Promise<T>,
): Promise<T> {
  const tracer = installed;
  if (tracer === undefined) return fn(OFF_SPAN);
  const span = tracer.startSpan(name, options);
  try {
    return await tracer.withSpan(span, () => fn(span));
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}

/** Whether spans may carry message content (`telemetry.record_content`). */
export function recordsContent(): boolean {
  return installed?.recordContent ?? false;
}
