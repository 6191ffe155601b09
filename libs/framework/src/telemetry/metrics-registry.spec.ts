import { describe, expect, it } from '@jest/globals';
import { Counter } from './counter.js';
import { Gauge } from './gauge.js';
import { Histogram } from './histogram.js';
import { MetricsRegistry } from './metrics-registry.js';

describe('MetricsRegistry', () => {
  it('writes counters, gauges and histograms with cumulative buckets', () => {
    const registry = new MetricsRegistry();
    const jobs = registry.register(
      new Counter({ name: 'jobs_total', help: 'Jobs', labelNames: ['kind'] }),
    );
    let open = 2;
    registry.register(new Gauge({ name: 'open', help: 'Open', read: () => open }));
    const size = registry.register(
      new Histogram({ name: 'size_bytes', help: 'Size', buckets: [1, 10] }),
    );
    jobs.add(['a"b']);
    jobs.add(['a"b'], 2);
    jobs.add(['x'], -1);
    size.observe([], 0.5);
    size.observe([], 5);
    size.observe([], 50);
    size.observe([], NaN);
    open = 3;
    expect(registry.render()).toBe(
      [
        '# HELP jobs_total Jobs',
        '# TYPE jobs_total counter',
        'jobs_total{kind="a\\"b"} 3',
        '# HELP open Open',
        '# TYPE open gauge',
        'open 3',
        '# HELP size_bytes Size',
        '# TYPE size_bytes histogram',
        'size_bytes_bucket{le="1"} 1',
        'size_bytes_bucket{le="10"} 2',
        'size_bytes_bucket{le="+Inf"} 3',
        'size_bytes_sum 55.5',
        'size_bytes_count 3',
        '',
      ].join('\n'),
    );
  });

  it('keeps at most maxSeries series per metric', () => {
    const counter = new Counter({ name: 'c_total', help: 'C', labelNames: ['v'], maxSeries: 2 });
    for (let i = 0; i < 10; i++) counter.add([String(i)]);
    expect(
      counter
        .render()
        .split('\n')
        .filter((l) => l.startsWith('c_total{')),
    ).toHaveLength(2);
  });

  it('refuses a second metric of the same name, wrong label counts and decreasing buckets', () => {
    const registry = new MetricsRegistry();
    registry.register(new Counter({ name: 'c_total', help: 'C' }));
    expect(() => registry.register(new Counter({ name: 'c_total', help: 'C' }))).toThrow(/already/);
    expect(() => new Counter({ name: 'd_total', help: 'D', labelNames: ['a'] }).add([])).toThrow(
      /label values/,
    );
    expect(() => new Histogram({ name: 'h', help: 'H', buckets: [2, 1] })).toThrow(/increase/);
  });
});
