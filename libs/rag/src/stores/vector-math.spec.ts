import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ValidationError } from '../../../providers/src/errors/validation.error.js';
import { scanTopK, toUnitVector } from './vector-math.js';
import { VectorMatrix } from './vector-matrix.js';

describe('vector math', () => {
  it('scales vectors to unit length and refuses bad ones', () => {
    expect(Array.from(toUnitVector([3, 4], 2))).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(Array.from(toUnitVector([0, 0], 2))).toEqual([0, 0]);
    expect(() => toUnitVector([1, 2, 3], 2)).toThrow(ValidationError);
    expect(() => toUnitVector([1, Infinity], 2)).toThrow(ValidationError);
  });

  it('finds exactly the k best rows, like a naive sort', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer(),
        (dims, rows, k, seed) => {
          let s = seed;
          const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) | 0) >>> 8) / (1 << 24) - 0.5;
          const matrix = new VectorMatrix(dims, 1);
          const vectors = Array.from({ length: rows }, () =>
            toUnitVector(Array.from({ length: dims }, rand), dims),
          );
          vectors.forEach((v) => matrix.append(v));
          const query = toUnitVector(Array.from({ length: dims }, rand), dims);
          const naive = vectors
            .map((v, row) => ({ row, score: v.reduce((sum, x, i) => sum + x * query[i], 0) }))
            .sort((a, b) => b.score - a.score || a.row - b.row)
            .slice(0, k);
          const fast = matrix.search(query, k);
          expect(fast).toHaveLength(Math.min(k, rows));
          fast.forEach((hit, i) => expect(hit.score).toBeCloseTo(naive[i].score, 5));
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  it('removes a range of rows and keeps the rest in order', () => {
    const matrix = new VectorMatrix(2, 1);
    for (const v of [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ])
      matrix.append(Float32Array.from(v));
    matrix.remove(1, 2);
    expect(matrix.rows).toBe(2);
    expect(Array.from(matrix.view(0, 2))).toEqual([1, 0, 0, -1]);
    expect(scanTopK(matrix.view(0, 2), 2, 2, Float32Array.from([0, -1]), 1)).toEqual([
      { row: 1, score: 1 },
    ]);
  });
});
