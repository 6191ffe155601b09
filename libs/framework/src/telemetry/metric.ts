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

/** One series: its label values and its state. */
interface Series<S> {
  readonly values: LabelValues;
  readonly state: S;
}

/** A level of the series index: the next label's value to the level below, or to the series. */
type Level = Map<string | undefined, unknown>;

/**
 * Bookkeeping shared by counters, gauges and histograms: series by label values, bounded. The
 * series are indexed one label at a time (a map per label), so finding the series of a sample
 * builds no key: every request's sample goes through here.
 */
export abstract class Metric<S> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  private readonly maxSeries: number;
  /** Every series, in the order they were created (the order of the exposition). */
  private readonly series: Series<S>[] = [];
  private readonly index: Level = new Map();

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
    for (const { values, state } of this.series) lines.push(...this.samples(values, state));
    return `${lines.join('\n')}\n`;
  }

  /** The state of the series of `values`, created on first use; `undefined` past `maxSeries`. */
  protected stateOf(values: LabelValues): S | undefined {
    const depth = this.labelNames.length;
    if (values.length !== depth) {
      throw new Error(`${this.name} takes ${depth} label values, got ${values.length}`);
    }
    if (depth === 0) {
      const only = this.series[0];
      return only === undefined ? this.create(values) : only.state;
    }
    let level = this.index;
    for (let i = 0; i < depth - 1; i++) {
      let next = level.get(values[i]) as Level | undefined;
      if (next === undefined) {
        if (this.series.length >= this.maxSeries) return undefined;
        next = new Map();
        level.set(values[i], next);
      }
      level = next;
    }
    const found = level.get(values[depth - 1]) as Series<S> | undefined;
    if (found !== undefined) return found.state;
    const state = this.create(values);
    if (state !== undefined) level.set(values[depth - 1], this.series[this.series.length - 1]);
    return state;
  }

  /** Creates the series of `values` (a copy of them); `undefined` past `maxSeries`. */
  private create(values: LabelValues): S | undefined {
    if (this.series.length >= this.maxSeries) return undefined;
    const state = this.initial();
    this.series.push({ values: [...values], state });
    return state;
  }

  /** A new series' state. */
  protected abstract initial(): S;
  /** The sample lines of one series. */
  protected abstract samples(values: LabelValues, state: S): string[];
}
