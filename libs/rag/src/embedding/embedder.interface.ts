/**
 * Turns texts into vectors for semantic search. Implementations: `HashingEmbedder` (offline,
 * the default: no network, no model weights) and `LlmEmbedder` (wraps anything with an
 * `embed(texts)` method, such as toolkit's `LLM` with `text-embedding-3-small` or
 * `ollama/nomic-embed-text`).
 *
 * @example
 * const embedder: Embedder = new HashingEmbedder();
 * const [vector] = await embedder.embed(['How many vacation days?']);
 * vector.length === embedder.dimensions; // true
 */
export interface Embedder {
  /**
   * Names the model and its settings, e.g. `hashing-v1:384` or
   * `openai/text-embedding-3-small`. Stores record it: vectors from different ids never mix.
   */
  readonly id: string;
  /** Length of every vector `embed` returns. */
  readonly dimensions: number;
  /**
   * The cosine similarity below which a chunk is unrelated to a query for this embedder (its
   * noise level): the default vector floor of retrieval (`RelevanceFloor.vector`). Optional:
   * model embeddings differ too much for one default.
   */
  readonly minSimilarity?: number;
  /** One vector per text, in order. */
  embed(texts: string[]): Promise<number[][]>;
}

/** Injection token for the application's {@link Embedder}. */
export const Embedder = Symbol('Embedder');
