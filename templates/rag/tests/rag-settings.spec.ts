import { describe, expect, it } from '@jest/globals';
import type { ToolkitConfig } from 'toolkit';
import { ragSettings } from '../src/rag-settings.js';

/** A configuration whose `rag:` section is `rag` (ragSettings reads nothing else). */
const config = (rag: Record<string, unknown>) => ({ extra: { rag } }) as unknown as ToolkitConfig;

describe('rag settings: the relevance floor', () => {
  it('defaults to a keyword coverage of 0.15 and the embedder’s own similarity floor', () => {
    const settings = ragSettings(config({}));
    expect(settings.min_keyword_coverage).toBe(0.15);
    expect(settings.min_similarity).toBeUndefined();
    expect(ragSettings(config({ min_keyword_coverage: 0, min_similarity: 0.3 }))).toMatchObject({
      min_keyword_coverage: 0,
      min_similarity: 0.3,
    });
  });

  it.each([
    [
      { min_keyword_coverage: -0.1 },
      'rag.min_keyword_coverage must be a number from 0 to 1 (got -0.1)',
    ],
    [
      { min_keyword_coverage: 'high' },
      'rag.min_keyword_coverage must be a number from 0 to 1 (got high)',
    ],
    [{ min_similarity: 1.5 }, 'rag.min_similarity must be a number from 0 to 1 (got 1.5)'],
    [{ min_similarity: null }, 'rag.min_similarity must be a number from 0 to 1 (got null)'],
  ])('refuses %p, naming the key', (rag, message) => {
    expect(() => ragSettings(config(rag))).toThrow(message);
  });
});
