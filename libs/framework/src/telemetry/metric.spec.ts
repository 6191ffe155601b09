import { describe, expect, it } from '@jest/globals';
import { Counter } from './counter.js';
import { Histogram } from './histogram.js';

/** The sample lines of a rendered metric (no `#` lines, no trailing empty line). */
function samples(rendered: string): string[] {
  return rendered.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

describe('Metric series', () => {
  it('keeps one series per combination of several labels, in the order first seen', () => {
    const counter = new Counter({ name: 'r_total', help: 'R', labelNames: ['method', 'route'] });
    counter.add(['GET', '/b']);
    counter.add(['POST', '/a']);
    counter.add(['GET', '/a'], 2);
    counter.add(['GET', '/b'], 3);
    counter.add(['POST', '/a']);
    expect(samples(counter.render())).toEqual([
      'r_total{method="GET",route="/b"} 4',
      'r_total{method="POST",route="/a"} 2',
      'r_total{method="GET",route="/a"} 2',
    ]);
  });

  it('tells a label left out from the same text, and values that would join alike', () => {
    const counter = new Counter({ name: 'u_total', help: 'U', labelNames: ['a', 'b'] });
    counter.add(['x', undefined]);
    counter.add(['x', 'undefined']);
    counter.add(['x,y', 'z']);
    counter.add(['x', 'y,z']);
    counter.add(['x', undefined]);
    expect(samples(counter.render())).toEqual([
      'u_total{a="x"} 2',
      'u_total{a="x",b="undefined"} 1',
      'u_total{a="x,y",b="z"} 1',
      'u_total{a="x",b="y,z"} 1',
    ]);
  });

  it('still counts known series past maxSeries and drops only new combinations', () => {
    const counter = new Counter({
      name: 'm_total',
      help: 'M',
      labelNames: ['a', 'b'],
      maxSeries: 2,
    });
    counter.add(['1', '1']);
    counter.add(['1', '2']);
    counter.add(['1', '3']);
    counter.add(['2', '1']);
    counter.add(['1', '1'], 4);
    expect(samples(counter.render())).toEqual(['m_total{a="1",b="1"} 5', 'm_total{a="1",b="2"} 1']);
  });

  it('puts a value equal to a bound in that bound’s bucket, and larger ones in +Inf', () => {
    const histogram = new Histogram({ name: 'h', help: 'H', labelNames: ['k'], buckets: [1, 2] });
    for (const value of [0, 1, 1.5, 2, 2.5, Infinity]) histogram.observe(['k'], value);
    expect(samples(histogram.render())).toEqual([
      'h_bucket{k="k",le="1"} 2',
      'h_bucket{k="k",le="2"} 4',
      'h_bucket{k="k",le="+Inf"} 5',
      'h_sum{k="k"} 7',
      'h_count{k="k"} 5',
    ]);
  });
});
