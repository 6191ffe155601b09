import { ConfigError, ToolkitError } from '../../../providers/src/internal.js';
import { EmbeddingError } from '../rag.errors.js';
import type { Embedder } from './embedder.interface.js';

/**
 * Anything that embeds a batch of texts: toolkit's `LLM` (`new LLM('text-embedding-3-small')`),
 * an SDK adapter, a test double.
 */
export interface EmbeddingSource {
  embed(texts: string[]): Promise<number[][]>;
}

/** Options of {@link LlmEmbedder}. */
export interface LlmEmbedderOptions {
  /** Names the model, e.g. `openai/text-embedding-3-small`; recorded by stores. */
  id: string;
  /** Vector length the model returns (1536 for `text-embedding-3-small`). */
  dimensions: number;
  /** Texts sent per request; providers cap it (OpenAI: 2048). @default 64 */
  batchSize?: number;
  /**
   * The model's noise level: cosine similarity below which a chunk is unrelated to a query
   * (see `Embedder.minSimilarity`); it differs per model, so there is no default.
   */
  minSimilarity?: number;
}

/**
 * Embeds through an {@link EmbeddingSource} in batches of `batchSize`, one request at a time,
 * and checks every answer: one vector per text, each `dimensions` long, all numbers finite;
 * anything else is an `EmbeddingError` (502) rather than a corrupt index.
 *
 * @example
 * const llm = new LLM('text-embedding-3-small');
 * const embedder = new LlmEmbedder(llm, { id: 'openai/text-embedding-3-small', dimensions: 1536 });
 * // or let it ask the model once:
 * const probed = await LlmEmbedder.probe(llm, { id: 'ollama/nomic-embed-text' });
 */
export class LlmEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly batchSize: number;
  readonly minSimilarity?: number;

  constructor(
    private readonly source: EmbeddingSource,
    options: LlmEmbedderOptions,
  ) {
    this.id = options.id;
    this.dimensions = options.dimensions;
    this.batchSize = options.batchSize ?? 64;
    const { minSimilarity } = options;
    if (minSimilarity !== undefined) {
      if (!Number.isFinite(minSimilarity) || minSimilarity < 0 || minSimilarity > 1) {
        throw new ConfigError(
          'embedding.minSimilarity',
          `must be a number from 0 to 1 (got ${String(minSimilarity)})`,
          'LlmEmbedder options',
        );
      }
      this.minSimilarity = minSimilarity;
    }
    if (!Number.isInteger(this.dimensions) || this.dimensions < 1) {
      throw new ConfigError(
        'embedding.dimensions',
        `must be a positive integer (got ${this.dimensions})`,
        'LlmEmbedder options',
      );
    }
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new ConfigError(
        'embedding.batchSize',
        `must be a positive integer (got ${this.batchSize})`,
        'LlmEmbedder options',
      );
    }
  }

  /** Builds an embedder whose `dimensions` are learnt by embedding one short text. */
  static async probe(
    source: EmbeddingSource,
    options: Omit<LlmEmbedderOptions, 'dimensions'>,
  ): Promise<LlmEmbedder> {
    const [vector] = await source.embed(['dimension probe']);
    if (!Array.isArray(vector) || vector.length === 0) {
      throw new EmbeddingError(`Embedding model ${options.id} returned no vector`);
    }
    return new LlmEmbedder(source, { ...options, dimensions: vector.length });
  }

  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize);
      let vectors: unknown;
      try {
        vectors = await this.source.embed(batch);
      } catch (error) {
        if (ToolkitError.isInstance(error)) throw error;
        throw new EmbeddingError(`Embedding with ${this.id} failed: ${String(error)}`, error);
      }
      out.push(...this.check(vectors, batch.length));
    }
    return out;
  }

  private check(vectors: unknown, expected: number): number[][] {
    if (!Array.isArray(vectors) || vectors.length !== expected) {
      const got = Array.isArray(vectors) ? vectors.length : typeof vectors;
      throw new EmbeddingError(
        `Embedding model ${this.id} returned ${got} vectors for ${expected} texts`,
      );
    }
    for (const vector of vectors as unknown[]) {
      if (!Array.isArray(vector) || vector.length !== this.dimensions) {
        const got = Array.isArray(vector) ? vector.length : typeof vector;
        throw new EmbeddingError(
          `Embedding model ${this.id} returned a vector of ${got} dimensions, expected ${this.dimensions}`,
        );
      }
      if (!vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingError(`Embedding model ${this.id} returned a non-numeric vector`);
      }
    }
    return vectors as number[][];
  }
}
