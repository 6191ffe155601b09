/** What a registry holds: a named metric that writes its own exposition. */
export interface RegisteredMetric {
  /** Unique in its registry. */
  readonly name: string;
  /** Its `# HELP`, `# TYPE` and sample lines. */
  render(): string;
}

/**
 * The metrics of one app, written together in the Prometheus text format.
 *
 * @example
 * const registry = new MetricsRegistry();
 * registry.register(new Counter({ name: 'jobs_total', help: 'Jobs done' })).add([]);
 * registry.render(); // "# HELP jobs_total Jobs done\n# TYPE jobs_total counter\njobs_total 1\n"
 */
export class MetricsRegistry {
  private readonly metrics = new Map<string, RegisteredMetric>();

  /** Adds `metric` (names are unique) and returns it. */
  register<M extends RegisteredMetric>(metric: M): M {
    if (this.metrics.has(metric.name))
      throw new Error(`metric ${metric.name} is already registered`);
    this.metrics.set(metric.name, metric);
    return metric;
  }

  /** Every metric's exposition, in the order they were registered. */
  render(): string {
    return [...this.metrics.values()].map((metric) => metric.render()).join('');
  }
}
