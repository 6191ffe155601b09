import { formatLabels, formatValue } from './exposition-format.js';
import { Metric, type LabelValues, type MetricOptions } from './metric.js';

/** Options of a {@link Gauge}. */
export interface GaugeOptions extends MetricOptions {
  /** Read at each scrape, for a gauge without labels: the value of now (e.g. open streams). */
  read?: () => number;
}

/**
 * A Prometheus gauge: a value of now, set or read at scrape time.
 *
 * @example
 * const open = new Gauge({ name: 'toolkit_sse_streams_open', help: 'Open streams', read: () => registry.size });
 */
export class Gauge extends Metric<{ value: number }> {
  private readonly read?: () => number;

  constructor(options: GaugeOptions) {
    super(options, 'gauge');
    this.read = options.read;
  }

  /** Sets the series of `labels` to `value`. */
  set(labels: LabelValues, value: number): void {
    const state = this.stateOf(labels);
    if (state) state.value = value;
  }

  override render(): string {
    if (this.read) this.set([], this.read());
    return super.render();
  }

  protected initial(): { value: number } {
    return { value: 0 };
  }

  protected samples(values: LabelValues, state: { value: number }): string[] {
    return [`${this.name}${formatLabels(this.labelNames, values)} ${formatValue(state.value)}`];
  }
}
