import { describe, expect, it } from '@jest/globals';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';

describe('reciprocalRankFusion', () => {
  it('sums 1 / (k + rank) over the lists', () => {
    const fused = reciprocalRankFusion(
      [
        ['a', 'b', 'c'],
        ['b', 'd'],
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused[1].score).toBeCloseTo(1 / 61, 12);
  });

  it('keeps first-appearance order on ties and handles empty input', () => {
    expect(reciprocalRankFusion([['x'], ['y']]).map((f) => f.id)).toEqual(['x', 'y']);
    expect(reciprocalRankFusion([])).toEqual([]);
  });
});
