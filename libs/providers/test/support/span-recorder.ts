import { context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { openTelemetryTracer } from '../../src/telemetry/open-telemetry.tracer.js';
import { installTracer } from '../../src/telemetry/tracing.js';

/** The real OpenTelemetry SDK, registered globally, keeping every ended span in memory. */
export interface SpanRecorder {
  /** Ended spans, oldest first. */
  spans(): ReadableSpan[];
  /** Ended spans named `name`. */
  named(name: string): ReadableSpan[];
  /** Forgets the spans recorded so far. */
  reset(): void;
  /** Runs `fn` inside an active span made by the test (`test.parent`); resolves to both. */
  withinParent<T>(fn: () => Promise<T>): Promise<{ value: T; parent: Span }>;
  /** Toolkit's tracer off again, the SDK unregistered. */
  uninstall(): Promise<void>;
}

/**
 * Registers a `BasicTracerProvider` with an `InMemorySpanExporter` and the async-hooks context
 * manager as OpenTelemetry's globals, and installs toolkit's tracer over them, as the framework
 * does when tracing is on.
 *
 * @example
 * const recorder = await recordSpans();
 * afterAll(() => recorder.uninstall());
 */
export async function recordSpans(
  options: { recordContent?: boolean } = {},
): Promise<SpanRecorder> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  installTracer(await openTelemetryTracer(options));
  const tracer = trace.getTracer('test');
  return {
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    reset: () => exporter.reset(),
    withinParent: (fn) =>
      tracer.startActiveSpan('test.parent', async (parent) => {
        try {
          return { value: await fn(), parent };
        } finally {
          parent.end();
        }
      }),
    uninstall: async () => {
      installTracer(undefined);
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}

/** The span id of `span`'s parent, if any. */
export function parentId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
