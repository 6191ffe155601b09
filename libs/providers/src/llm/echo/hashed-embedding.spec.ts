import { describe, expect, it } from '@jest/globals';
import { hashedEmbedding } from './hashed-embedding.js';

const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

describe('hashedEmbedding', () => {
  it('is deterministic, normalised and 64-dimensional by default', () => {
    const v = hashedEmbedding('Retrieval augmented generation');
    expect(v).toHaveLength(64);
    expect(hashedEmbedding('retrieval AUGMENTED generation!')).toEqual(v);
    expect(dot(v, v)).toBeCloseTo(1, 10);
  });

  it('makes texts sharing words more similar than unrelated ones', () => {
    const a = hashedEmbedding('postgres vector search index', 256);
    const b = hashedEmbedding('vector search in postgres', 256);
    const c = hashedEmbedding('baking sourdough bread at home', 256);
    expect(dot(a, b)).toBeGreaterThan(0.5);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });

  it('gives the zero vector for text without words and rejects bad sizes', () => {
    expect(hashedEmbedding('  !! ', 8)).toEqual(new Array(8).fill(0));
    expect(() => hashedEmbedding('x', 0)).toThrow(RangeError);
  });
});
