/** A value a span attribute may hold (OpenTelemetry's primitive and homogeneous array values). */
export type SpanAttributeValue = string | number | boolean | readonly string[] | readonly number[];

/** Span attributes by name; `undefined` values are left out. */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue | undefined>>;

/** What a span describes to its parent: OpenTelemetry's span kinds toolkit uses. */
export type TraceSpanKind = 'internal' | 'client' | 'server';

/** One unit of work being traced: attributes are added while it runs, then it ends once. */
export interface TraceSpan {
  /** False for the span handed out while tracing is off (its methods do nothing). */
  readonly recording: boolean;
  /** Adds or replaces attributes. */
  setAttributes(attributes: SpanAttributes): void;
  /**
   * Marks the span failed: status error, `error.type` (the error's class or code) and an
   * exception event whose message is the error's own.
   */
  fail(error: unknown): void;
  /** Ends the span; later calls do nothing. */
  end(): void;
}

/** How a span starts. */
export interface TraceSpanOptions {
  /** @default 'internal' */
  kind?: TraceSpanKind;
  /** Attributes known at the start (samplers see these). */
  attributes?: SpanAttributes;
  /**
   * The span this one belongs to. @default the active span of the calling async context (e.g. the
   * request's HTTP server span), or a new trace when there is none
   */
  parent?: TraceSpan;
}

/**
 * Where toolkit's spans go: OpenTelemetry when `telemetry` tracing is on (the framework installs
 * one with `installTracer`), or any implementation of your own. Toolkit's code never imports
 * `@opentelemetry/*` itself, so an app without tracing loads none of it.
 */
export interface Tracer {
  /**
   * Whether spans may carry message content (prompts, answers, tool arguments and results), as
   * `telemetry.record_content` says. @default false
   */
  readonly recordContent: boolean;
  /** Starts a span; the caller ends it. */
  startSpan(name: string, options?: TraceSpanOptions): TraceSpan;
  /**
   * Runs `fn` with `span` as the active span, so spans started inside it (toolkit's, and those of
   * OpenTelemetry instrumentations such as `pg`'s) become its children.
   */
  withSpan<T>(span: TraceSpan, fn: () => T): T;
}
