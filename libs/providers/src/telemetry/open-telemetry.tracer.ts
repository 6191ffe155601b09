import type * as OpenTelemetryApi from '@opentelemetry/api';
import type {
  SpanAttributes,
  TraceSpan,
  TraceSpanKind,
  TraceSpanOptions,
  Tracer,
} from './tracer.interface.js';

type Api = typeof OpenTelemetryApi;

/** The instrumentation scope of toolkit's spans. */
export const TOOLKIT_TRACER_NAME = 'toolkit';

/**
 * A `Tracer` over OpenTelemetry's API: spans go to the tracer provider registered globally (the
 * framework's, or one the app registered itself, e.g. with `@opentelemetry/sdk-node`). Loads
 * `@opentelemetry/api` (an optional peer) when called, never before.
 *
 * @example
 * installTracer(await openTelemetryTracer({ recordContent: false }));
 */
export async function openTelemetryTracer(
  options: { recordContent?: boolean; version?: string } = {},
): Promise<Tracer> {
  const api: Api = await import('@opentelemetry/api');
  const tracer = api.trace.getTracer(TOOLKIT_TRACER_NAME, options.version);
  return new OpenTelemetryTracer(api, tracer, options.recordContent ?? false);
}

class OpenTelemetryTracer implements Tracer {
  constructor(
    private readonly api: Api,
    private readonly tracer: OpenTelemetryApi.Tracer,
    readonly recordContent: boolean,
  ) {}

  startSpan(name: string, options: TraceSpanOptions = {}): TraceSpan {
    const { context, trace } = this.api;
    const parent =
      options.parent instanceof OpenTelemetrySpan
        ? trace.setSpan(context.active(), options.parent.span)
        : context.active();
    const span = this.tracer.startSpan(
      name,
      { kind: this.kind(options.kind), attributes: definedAttributes(options.attributes) },
      parent,
    );
    return new OpenTelemetrySpan(this.api, span);
  }

  withSpan<T>(span: TraceSpan, fn: () => T): T {
    if (!(span instanceof OpenTelemetrySpan)) return fn();
    const { context, trace } = this.api;
    return context.with(trace.setSpan(context.active(), span.span), fn);
  }

  private kind(kind: TraceSpanKind = 'internal'): OpenTelemetryApi.SpanKind {
    const { SpanKind } = this.api;
    return kind === 'client'
      ? SpanKind.CLIENT
      : kind === 'server'
        ? SpanKind.SERVER
        : SpanKind.INTERNAL;
  }
}

class OpenTelemetrySpan implements TraceSpan {
  private ended = false;

  constructor(
    private readonly api: Api,
    readonly span: OpenTelemetryApi.Span,
  ) {}

  get recording(): boolean {
    return this.span.isRecording();
  }

  setAttributes(attributes: SpanAttributes): void {
    if (!this.ended) this.span.setAttributes(definedAttributes(attributes));
  }

  fail(error: unknown): void {
    if (this.ended) return;
    const { name, message } =
      error instanceof Error ? error : { name: 'Error', message: String(error) };
    const code = (error as { code?: unknown } | null)?.code;
    this.span.setAttribute('error.type', typeof code === 'string' && code !== '' ? code : name);
    this.span.recordException({ name, message });
    this.span.setStatus({ code: this.api.SpanStatusCode.ERROR, message });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }
}

function definedAttributes(attributes: SpanAttributes | undefined): OpenTelemetryApi.Attributes {
  const defined: OpenTelemetryApi.Attributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value !== undefined) defined[key] = value as OpenTelemetryApi.AttributeValue;
  }
  return defined;
}
