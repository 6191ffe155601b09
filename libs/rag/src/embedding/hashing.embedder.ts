import { ConfigError } from '../../../providers/src/internal.js';
import type { Embedder } from './embedder.interface.js';
import { tokenize } from './tokenize.js';

/** Options of {@link HashingEmbedder}. */
export interface HashingEmbedderOptions {
  /** Vector length. More dimensions, fewer collisions between unrelated terms. @default 384 */
  dimensions?: number;
  /** Weight of character trigrams relative to whole terms (typos, word forms). @default 0.3 */
  trigramWeight?: number;
  /**
   * Cosine similarity below which a chunk counts as unrelated (see `Embedder.minSimilarity`).
   * Unrelated texts share hashed features by chance, the more so the shorter they are: a
   * gibberish query reached 0.23 against the 12 documents of test/rag/retrieval and 0.32
   * against a one-sentence document (384 dimensions). The default, `8 / √dimensions` (0.41 at
   * 384, at most 1), lies above both; with keywords beside it (hybrid) it cost no recall there.
   * @default min(1, 8 / √dimensions)
   */
  minSimilarity?: number;
}

/**
 * The offline default embedder: deterministic "feature hashing" of a text's terms (see
 * `tokenize`) and of their character trigrams into a fixed-size vector, with sub-linear term
 * frequency. No network, no model weights, microseconds per text. It captures shared words
 * and word forms, not meaning: good enough to rank passages that use the question's words,
 * which is why offline projects pair it with BM25 (hybrid) or use BM25 alone.
 *
 * @example
 * const embedder = new HashingEmbedder({ dimensions: 256 });
 * const [a, b] = await embedder.embed(['vacation days', 'days of vacation']); // near-identical
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly minSimilarity: number;
  private readonly trigramWeight: number;

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 384;
    this.trigramWeight = options.trigramWeight ?? 0.3;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 8) {
      throw new ConfigError(
        'embedding.dimensions',
        `must be an integer >= 8 (got ${this.dimensions})`,
        'HashingEmbedder options',
      );
    }
    this.minSimilarity = options.minSimilarity ?? Math.min(1, 8 / Math.sqrt(this.dimensions));
    if (!Number.isFinite(this.minSimilarity) || this.minSimilarity < 0 || this.minSimilarity > 1) {
      throw new ConfigError(
        'embedding.minSimilarity',
        `must be a number from 0 to 1 (got ${String(options.minSimilarity)})`,
        'HashingEmbedder options',
      );
    }
    this.id = `hashing-v1:${this.dimensions}`;
  }

  /**
   * The options that make an equal embedder: `new HashingEmbedder(e.options)` gives the same
   * vectors (how the parser workers embed offline, off the event loop).
   */
  get options(): Required<HashingEmbedderOptions> {
    return {
      dimensions: this.dimensions,
      trigramWeight: this.trigramWeight,
      minSimilarity: this.minSimilarity,
    };
  }

  embed(texts: string[]): Promise<number[][]> {
    return Promise.resolve(texts.map((text) => this.embedOne(text)));
  }

  /** Synchronous form of `embed` for one text. */
  embedOne(text: string): number[] {
    const counts = new Map<string, number>();
    for (const term of tokenize(text)) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      const padded = `^${term}$`;
      for (let i = 0; i + 3 <= padded.length; i += 1) {
        const gram = `#${padded.slice(i, i + 3)}`;
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
    }
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [feature, count] of counts) {
      const hash = fnv1a(feature);
      const weight = (feature.startsWith('#') ? this.trigramWeight : 1) * (1 + Math.log(count));
      vector[hash % this.dimensions] += hash & 0x80000000 ? -weight : weight;
    }
    return vector;
  }
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable across platforms and releases. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
