import { escapeHelp } from './exposition-format.js';

/** Label values of one series, in the order of its metric's label names (`undefined`: left out). */
export type LabelValues = readonly (string | undefined)[];

/** What every metric is declared with. */
export interface MetricOptions {
  /** The metric's name, e.g. `http_server_request_duration_seconds`. */
  name: string;
  /** One line saying what it measures (`# HELP`). */
  help: string;
  /** Its label names, e.g. `['http_request_method', 'http_route']`. @default [] */
  labelNames?: readonly string[];
  /**
   * Most series (label value combinations) kept: samples of further combinations are dropped, so
   * a bug feeding unbounded values cannot grow a scrape without limit. @default 1000
   */
  maxSeries?: number;
}

/** Bookkeeping shared by counters, gauges and histograms: series by label values, bounded. */
export abstract class Metric<S> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  private readonly maxSeries: number;
  protected readonly series = new Map<string, { values: LabelValues; state: S }>();

  constructor(
    options: MetricOptions,
    readonly type: 'counter' | 'gauge' | 'histogram',
  ) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames ?? [];
    this.maxSeries = options.maxSeries ?? 1000;
  }

  /** The exposition of this metric: `# HELP`, `# TYPE`, then its samples. */
  render(): string {
    const lines = [
      `# HELP ${this.name} ${escapeHelp(this.help)}`,
      `# TYPE ${this.name} ${this.type}`,
    ];
    for (const { values, state } of this.series.values())
      lines.push(...this.samples(values, state));
    return `${lines.join('\n')}\n`;
  }

  /** The state of the series of `values`, created on first use; `undefined` past `maxSeries`. */
  protected stateOf(values: LabelValues): S | undefined {
    if (values.length !== this.labelNames.length) {
      throw new Error(
        `${this.name} takes ${this.labelNames.length} label values, got ${values.length}`,
      );
    }
    const key = JSON.stringify(values);
    const found = this.series.get(key);
    if (found) return found.state;
    if (this.series.size >= this.maxSeries) return undefined;
    const state = this.initial();
    this.series.set(key, { values: [...values], state });
    return state;
  }

  /** A new series' state. */
  protected abstract initial(): S;
  /** The sample lines of one series. */
  protected abstract samples(values: LabelValues, state: S): string[];
}
