import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { isKeySet } from '../../../providers/src/llm/default-model.js';

/** The `rag:` section of a project's toolkit.yaml, checked and with defaults filled in. */
export interface ProjectRagSettings {
  /** `auto` (OpenAI embeddings when OPENAI_API_KEY is set, else offline), `offline`, or a model name. */
  embeddings: string;
  /** Vector dimensions of that model (known models need none). */
  embedding_dimensions?: number;
  /** `local` (files under `index_dir`) or `pgvector` (PostgreSQL, shared by several processes). */
  store: 'local' | 'pgvector';
  postgres_url: string;
  /** Prefix of the pgvector store's tables. @default "toolkit_rag" */
  postgres_table: string;
  /** Chunk size and overlap, in characters. */
  chunk_size: number;
  chunk_overlap: number;
  /** Largest `top_k` a search may ask for. */
  max_top_k: number;
  /** Where documents are stored, relative to the project folder. */
  documents_dir: string;
  /** Where the index (vectors, manifest) is kept, relative to the project folder. */
  index_dir: string;
  /** BullMQ queue name of `toolkit ingest` / `toolkit worker`. @default "toolkit-ingest-<app.name>" */
  queue?: string;
}

const DEFAULTS: ProjectRagSettings = {
  embeddings: 'auto',
  store: 'local',
  postgres_url: 'postgres://127.0.0.1:5432/postgres',
  postgres_table: 'toolkit_rag',
  chunk_size: 1000,
  chunk_overlap: 150,
  max_top_k: 20,
  documents_dir: 'docs/documents',
  index_dir: '.toolkit/index',
};

/** Dimensions of the embedding models known without `embedding_dimensions`. */
export const KNOWN_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'ollama/nomic-embed-text': 768,
  'gemini-embedding-001': 3072,
};

/**
 * Reads and checks the `rag:` section (`config.extra.rag`); a bad value throws a `ConfigError`
 * naming the key.
 *
 * @example
 * const settings = projectRagSettings(loadConfig({ cwd }));
 */
export function projectRagSettings(config: { extra: Record<string, unknown> }): ProjectRagSettings {
  const section = config.extra.rag ?? {};
  const fail = (key: string, problem: string) =>
    new ConfigError(`rag${key ? `.${key}` : ''}`, problem, 'toolkit.yaml');
  if (typeof section !== 'object' || section === null || Array.isArray(section)) {
    throw fail('', 'must be a mapping of keys');
  }
  const settings = { ...DEFAULTS, ...(section as Partial<ProjectRagSettings>) };
  if (typeof settings.embeddings !== 'string')
    throw fail('embeddings', 'must be auto, offline or a model name');
  for (const key of ['documents_dir', 'index_dir', 'postgres_url', 'postgres_table'] as const) {
    if (typeof settings[key] !== 'string' || settings[key] === '')
      throw fail(key, 'must be a non-empty string');
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(settings.postgres_table))
    throw fail('postgres_table', 'must be lower-case letters, digits and underscores');
  if (settings.queue !== undefined && !/^[\w.-]+$/.test(String(settings.queue)))
    throw fail('queue', 'must be letters, digits, ".", "_" or "-"');
  if (settings.store !== 'local' && settings.store !== 'pgvector')
    throw fail('store', 'must be local or pgvector');
  for (const key of ['chunk_size', 'chunk_overlap', 'max_top_k'] as const) {
    const min = key === 'chunk_overlap' ? 0 : 1;
    if (!Number.isInteger(settings[key]) || settings[key] < min) {
      throw fail(key, `must be a ${min === 0 ? 'non-negative' : 'positive'} integer`);
    }
  }
  if (settings.chunk_overlap >= settings.chunk_size)
    throw fail('chunk_overlap', 'must be smaller than rag.chunk_size');
  return settings;
}

/** The embedding model `embeddings` resolves to, or undefined for the offline embedder. */
export function projectEmbeddingModel(
  settings: ProjectRagSettings,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (settings.embeddings === 'offline') return undefined;
  if (settings.embeddings === 'auto')
    return isKeySet(env.OPENAI_API_KEY) ? 'text-embedding-3-small' : undefined;
  return settings.embeddings;
}
