import { describe, expect, it } from '@jest/globals';
import { embeddingDimensions } from './embedding-dimensions.table.js';

describe('embeddingDimensions', () => {
  it('knows the common embedding models, with or without a provider prefix', () => {
    expect(embeddingDimensions('text-embedding-3-small')).toBe(1536);
    expect(embeddingDimensions('openai/text-embedding-3-large')).toBe(3072);
    expect(embeddingDimensions('ollama/nomic-embed-text')).toBe(768);
  });

  it('knows nothing of other names, inherited object keys included', () => {
    expect(embeddingDimensions('my-embedder')).toBeUndefined();
    expect(embeddingDimensions('constructor')).toBeUndefined();
    expect(embeddingDimensions('gpt-4o')).toBeUndefined();
  });
});
