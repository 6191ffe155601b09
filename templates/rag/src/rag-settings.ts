import { ConfigError, isKeySet, type ToolkitConfig } from 'toolkit';

/** The `rag:` section of toolkit.yaml, checked. */
export interface RagSettings {
  /** `auto` (OpenAI embeddings when OPENAI_API_KEY is set, else offline), `offline`, or an embedding model name. */
  embeddings: string;
  /** Vector dimensions of that model (known models need none). */
  embedding_dimensions?: number;
  /** `local` (files under .toolkit/) or `pgvector` (PostgreSQL, for several app instances). */
  store: 'local' | 'pgvector';
  postgres_url: string;
  /** Chunk size and overlap, in characters. */
  chunk_size: number;
  chunk_overlap: number;
  /** Largest `top_k` a request may ask for. */
  max_top_k: number;
  /**
   * Relevance floor, keywords: the least share of a question (its words weighted by rarity) a
   * chunk must contain to be a source (0 to 1; 0 = off).
   */
  min_keyword_coverage: number;
  /**
   * Relevance floor, vectors: the least cosine similarity for a chunk to be a source (0 to 1).
   * Unset: the embedder's own (offline: 0.41), none for embedding models.
   */
  min_similarity?: number;
  /** Where documents are stored (server-generated names), relative to the working directory. */
  documents_dir: string;
  /** Where the index (vectors, manifest) is kept. */
  index_dir: string;
}

const DEFAULTS: RagSettings = {
  embeddings: 'auto',
  store: 'local',
  postgres_url: 'postgres://127.0.0.1:5432/postgres',
  chunk_size: 1000,
  chunk_overlap: 150,
  max_top_k: 20,
  min_keyword_coverage: 0.15,
  documents_dir: 'docs/documents',
  index_dir: '.toolkit/index',
};

/** Dimensions of the embedding models the template knows. */
export const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'ollama/nomic-embed-text': 768,
  'gemini-embedding-001': 3072,
};

/** Reads and checks `rag:`; a bad value stops start-up with a line naming the key. */
export function ragSettings(config: ToolkitConfig): RagSettings {
  const raw = (config.extra.rag ?? {}) as Record<string, unknown>;
  const settings = { ...DEFAULTS, ...raw };
  const fail = (key: string, problem: string) =>
    new ConfigError(`rag.${key}`, problem, 'toolkit.yaml');
  if (typeof settings.embeddings !== 'string')
    throw fail('embeddings', 'must be auto, offline or a model name');
  for (const key of ['documents_dir', 'index_dir', 'postgres_url'] as const) {
    if (typeof settings[key] !== 'string' || settings[key] === '')
      throw fail(key, 'must be a non-empty string');
  }
  if (settings.store !== 'local' && settings.store !== 'pgvector')
    throw fail('store', 'must be local or pgvector');
  for (const key of ['chunk_size', 'chunk_overlap', 'max_top_k'] as const) {
    if (!Number.isInteger(settings[key]) || settings[key] < (key === 'chunk_overlap' ? 0 : 1)) {
      throw fail(key, `must be a ${key === 'chunk_overlap' ? 'non-negative' : 'positive'} integer`);
    }
  }
  if (settings.chunk_overlap >= settings.chunk_size)
    throw fail('chunk_overlap', 'must be smaller than rag.chunk_size');
  for (const key of ['min_keyword_coverage', 'min_similarity'] as const) {
    const value: unknown = settings[key];
    if (value === undefined && key === 'min_similarity') continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
      throw fail(key, `must be a number from 0 to 1 (got ${String(value)})`);
  }
  return settings;
}

/** The embedding model `embeddings: auto` resolves to, or undefined for the offline embedder. */
export function embeddingModel(settings: RagSettings, env = process.env): string | undefined {
  if (settings.embeddings === 'offline') return undefined;
  if (settings.embeddings === 'auto')
    return isKeySet(env.OPENAI_API_KEY) ? 'text-embedding-3-small' : undefined;
  return settings.embeddings;
}
