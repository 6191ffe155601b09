import { Counter } from './counter.js';

/** One count per process: every provider toolkit built adds to it. */
const STORE = Symbol.for('toolkit:dropped-spans');
const store: { count: number } =
  ((globalThis as Record<symbol, unknown>)[STORE] as { count: number } | undefined) ??
  ((globalThis as Record<symbol, unknown>)[STORE] = { count: 0 });

/**
 * Spans toolkit's trace exporter lost since the process started: a full queue (the endpoint is
 * slower than the app) or a failed export (unreachable, timed out, refused). A growing count
 * says traces are incomplete, never that requests failed: exporting never delays them.
 *
 * @example
 * if (droppedSpanCount() > 0) console.warn('traces are incomplete');
 */
export function droppedSpanCount(): number {
  return store.count;
}

/** Adds `count` spans to {@link droppedSpanCount}. */
export function countDroppedSpans(count: number): void {
  if (count > 0) store.count += count;
}

/**
 * `toolkit_trace_spans_dropped_total` of `telemetry.metrics`: {@link droppedSpanCount}, read at
 * each scrape (0 while tracing is off).
 *
 * @example
 * registry.register(new DroppedSpansCounter());
 */
export class DroppedSpansCounter extends Counter {
  constructor() {
    super({
      name: 'toolkit_trace_spans_dropped_total',
      help: 'Spans the trace exporter dropped (queue full or export failed).',
    });
  }

  override render(): string {
    const state = this.stateOf([]);
    if (state) state.value = droppedSpanCount();
    return super.render();
  }
}
