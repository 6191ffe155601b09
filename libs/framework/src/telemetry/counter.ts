import { formatLabels, formatValue } from './exposition-format.js';
import { Metric, type LabelValues } from './metric.js';

/**
 * A Prometheus counter: a total that only goes up (name it `..._total`).
 *
 * @example
 * const cost = new Counter({ name: 'toolkit_llm_cost_usd_total', help: 'USD', labelNames: ['gen_ai_request_model'] });
 * cost.add(['gpt-4o-mini'], 0.0002);
 */
export class Counter extends Metric<{ value: number }> {
  constructor(options: ConstructorParameters<typeof Metric>[0]) {
    super(options, 'counter');
  }

  /** Adds `amount` (≥ 0; a negative or non-finite amount is ignored) to the series of `labels`. */
  add(labels: LabelValues, amount = 1): void {
    if (!(amount >= 0) || !Number.isFinite(amount)) return;
    const state = this.stateOf(labels);
    if (state) state.value += amount;
  }

  protected initial(): { value: number } {
    return { value: 0 };
  }

  protected samples(values: LabelValues, state: { value: number }): string[] {
    return [`${this.name}${formatLabels(this.labelNames, values)} ${formatValue(state.value)}`];
  }
}
