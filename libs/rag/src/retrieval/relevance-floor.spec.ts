import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { DEFAULT_KEYWORD_FLOOR, resolveRelevanceFloor } from './relevance-floor.js';

describe('resolveRelevanceFloor', () => {
  it("fills in the keyword default and the embedder's similarity floor", () => {
    expect(resolveRelevanceFloor(undefined, { minSimilarity: 0.23 })).toEqual({
      keyword: DEFAULT_KEYWORD_FLOOR,
      vector: 0.23,
    });
    expect(resolveRelevanceFloor({}, {})).toEqual({ keyword: 0.15, vector: 0 });
    expect(resolveRelevanceFloor({ keyword: 0, vector: 0.4 }, { minSimilarity: 0.2 })).toEqual({
      keyword: 0,
      vector: 0.4,
    });
  });

  it.each([
    [{ keyword: -0.1 }, 'rag.minScore.keyword must be a number from 0 to 1 (got -0.1)'],
    [{ vector: Number.NaN }, 'rag.minScore.vector must be a number from 0 to 1 (got NaN)'],
    [{ vector: 1.5 }, 'rag.minScore.vector must be a number from 0 to 1 (got 1.5)'],
    [{ keyword: '0.2' as unknown as number }, 'rag.minScore.keyword must be a number'],
  ])('refuses %p with a clear message', (floor, message) => {
    expect(() => resolveRelevanceFloor(floor, {})).toThrow(ConfigError);
    expect(() => resolveRelevanceFloor(floor, {})).toThrow(message);
  });

  it('refuses a floor that is not an object', () => {
    expect(() => resolveRelevanceFloor(0.2 as unknown as object, {})).toThrow(
      'rag.minScore must be an object such as { keyword: 0.15, vector: 0.3 } (got 0.2)',
    );
  });
});
