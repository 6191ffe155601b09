import { formatLabels, formatValue } from './exposition-format.js';
import { Metric, type LabelValues, type MetricOptions } from './metric.js';

/** Options of a {@link Histogram}. */
export interface HistogramOptions extends MetricOptions {
  /** Upper bounds of the buckets, increasing (`+Inf` is added). */
  buckets: readonly number[];
}

interface HistogramState {
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram with fixed buckets: `_bucket{le=…}` (cumulative), `_sum` and `_count`.
 *
 * @example
 * const duration = new Histogram({ name: 'x_seconds', help: 'Duration', buckets: [0.1, 1] });
 * duration.observe([], 0.25);
 */
export class Histogram extends Metric<HistogramState> {
  private readonly buckets: readonly number[];

  constructor(options: HistogramOptions) {
    super(options, 'histogram');
    if (options.buckets.some((b, i) => i > 0 && b <= options.buckets[i - 1])) {
      throw new Error(`${options.name}: buckets must increase`);
    }
    this.buckets = options.buckets;
  }

  /** Counts `value` in the series of `labels` (a non-finite value is ignored). */
  observe(labels: LabelValues, value: number): void {
    if (!Number.isFinite(value)) return;
    const state = this.stateOf(labels);
    if (!state) return;
    // A plain loop over a dozen bounds: no callback per observation.
    const { buckets } = this;
    let index = 0;
    while (index < buckets.length && value > buckets[index]) index++;
    state.counts[index] += 1;
    state.sum += value;
    state.count += 1;
  }

  protected initial(): HistogramState {
    return { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  protected samples(values: LabelValues, state: HistogramState): string[] {
    const lines: string[] = [];
    let cumulative = 0;
    [...this.buckets, Infinity].forEach((bound, i) => {
      cumulative += state.counts[i];
      const labels = formatLabels(this.labelNames, values, ['le', formatValue(bound)]);
      lines.push(`${this.name}_bucket${labels} ${cumulative}`);
    });
    const labels = formatLabels(this.labelNames, values);
    lines.push(`${this.name}_sum${labels} ${formatValue(state.sum)}`);
    lines.push(`${this.name}_count${labels} ${state.count}`);
    return lines;
  }
}
