import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import { EmbeddingError } from '../rag.errors.js';
import { LlmEmbedder, type EmbeddingSource } from './llm.embedder.js';

/** A scripted embedding source that records every batch it receives. */
function source(
  answer: (texts: string[]) => unknown = (texts) => texts.map((t) => [t.length, 1, 0]),
) {
  const calls: string[][] = [];
  const src = {
    calls,
    embed(texts: string[]) {
      calls.push(texts);
      return Promise.resolve(answer(texts) as number[][]);
    },
  };
  return src satisfies EmbeddingSource;
}

describe('LlmEmbedder', () => {
  it('embeds in batches of batchSize, in order', async () => {
    const src = source();
    const embedder = new LlmEmbedder(src, { id: 'test/model', dimensions: 3, batchSize: 2 });
    const vectors = await embedder.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(src.calls).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
    expect(await embedder.embed([])).toEqual([]);
    expect(src.calls).toHaveLength(3);
  });

  it('learns its dimensions from one probe call', async () => {
    const src = source();
    const embedder = await LlmEmbedder.probe(src, { id: 'ollama/nomic-embed-text' });
    expect([embedder.id, embedder.dimensions, embedder.batchSize]).toEqual([
      'ollama/nomic-embed-text',
      3,
      64,
    ]);
    expect(src.calls).toEqual([['dimension probe']]);
  });

  it.each([
    ['too few vectors', () => [[1, 2, 3]], 'Embedding model m returned 1 vectors for 2 texts'],
    ['not an array', () => ({ data: [] }), 'Embedding model m returned object vectors for 2 texts'],
    [
      'wrong dimensions',
      () => [
        [1, 2, 3],
        [1, 2],
      ],
      'Embedding model m returned a vector of 2 dimensions, expected 3',
    ],
    [
      'non-finite numbers',
      () => [
        [1, 2, 3],
        [1, NaN, 3],
      ],
      'Embedding model m returned a non-numeric vector',
    ],
  ])('refuses %s with a 502', async (_label, answer, message) => {
    const embedder = new LlmEmbedder(source(answer), { id: 'm', dimensions: 3 });
    const error = await embedder.embed(['x', 'y']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).statusCode).toBe(502);
    expect((error as EmbeddingError).message).toBe(message);
  });

  it('passes toolkit errors through and wraps others', async () => {
    const limited = new ToolkitError('Rate limited', { statusCode: 429 });
    const failing = (error: Error): EmbeddingSource => ({ embed: () => Promise.reject(error) });
    await expect(
      new LlmEmbedder(failing(limited), { id: 'm', dimensions: 3 }).embed(['x']),
    ).rejects.toBe(limited);
    const wrapped = await new LlmEmbedder(failing(new Error('socket hang up')), {
      id: 'm',
      dimensions: 3,
    })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(wrapped).toBeInstanceOf(EmbeddingError);
    expect((wrapped as Error).message).toBe('Embedding with m failed: Error: socket hang up');
  });

  it('refuses bad options', () => {
    expect(() => new LlmEmbedder(source(), { id: 'm', dimensions: 0 })).toThrow(ConfigError);
    expect(() => new LlmEmbedder(source(), { id: 'm', dimensions: 3, batchSize: 0 })).toThrow(
      ConfigError,
    );
  });

  it('takes an optional similarity floor, checked', () => {
    const source = { embed: (texts: string[]) => Promise.resolve(texts.map(() => [1, 0])) };
    expect(new LlmEmbedder(source, { id: 'm', dimensions: 2 }).minSimilarity).toBeUndefined();
    expect(
      new LlmEmbedder(source, { id: 'm', dimensions: 2, minSimilarity: 0.3 }).minSimilarity,
    ).toBe(0.3);
    expect(() => new LlmEmbedder(source, { id: 'm', dimensions: 2, minSimilarity: -1 })).toThrow(
      'embedding.minSimilarity must be a number from 0 to 1 (got -1)',
    );
  });
});
