import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { HashingEmbedder } from './hashing.embedder.js';

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((s, x, i) => s + x * b[i], 0);
  const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return dot / (norm(a) * norm(b));
};

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder();

  it('is deterministic, names its settings and has the stated dimensions', async () => {
    const [a] = await embedder.embed(['Vacation days per year']);
    const [b] = await new HashingEmbedder().embed(['Vacation days per year']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(384);
    expect(embedder.id).toBe('hashing-v1:384');
    expect(new HashingEmbedder({ dimensions: 64 }).id).toBe('hashing-v1:64');
  });

  it('puts texts sharing words and word forms closer than unrelated texts', async () => {
    const [query, related, forms, unrelated] = await embedder.embed([
      'How many vacation days do I get?',
      'Employees get 25 vacation days per year.',
      'Vacationing for several days',
      'Descale the espresso machine monthly.',
    ]);
    expect(cosine(query, related)).toBeGreaterThan(0.4);
    expect(cosine(query, forms)).toBeGreaterThan(cosine(query, unrelated));
    expect(cosine(query, unrelated)).toBeLessThan(0.15);
  });

  it('gives a zero vector for text without content words', async () => {
    const [v] = await embedder.embed(['the of and']);
    expect(v.every((x) => x === 0)).toBe(true);
  });

  it('refuses too few dimensions', () => {
    expect(() => new HashingEmbedder({ dimensions: 4 })).toThrow(ConfigError);
  });

  it('declares its noise level as the similarity floor, 8 / √dimensions unless given', () => {
    expect(new HashingEmbedder().minSimilarity).toBeCloseTo(0.4082, 4);
    expect(new HashingEmbedder({ dimensions: 1024 }).minSimilarity).toBeCloseTo(0.25, 10);
    expect(new HashingEmbedder({ dimensions: 64 }).minSimilarity).toBe(1);
    expect(new HashingEmbedder({ minSimilarity: 0 }).minSimilarity).toBe(0);
    for (const bad of [-0.1, 2, Number.NaN]) {
      expect(() => new HashingEmbedder({ minSimilarity: bad })).toThrow(
        `embedding.minSimilarity must be a number from 0 to 1 (got ${bad})`,
      );
    }
  });
});
