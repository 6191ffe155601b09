import { resolve } from 'node:path';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { HashingEmbedder } from '../embedding/hashing.embedder.js';
import { LlmEmbedder } from '../embedding/llm.embedder.js';
import { DocumentIndex } from '../indexing/document-index.js';
import type { IndexLogger } from '../indexing/indexing-progress.js';
import { PgVectorStore } from '../stores/pgvector.store.js';
import {
  KNOWN_EMBEDDING_DIMENSIONS,
  projectEmbeddingModel,
  projectRagSettings,
  type ProjectRagSettings,
} from './project-rag-settings.js';

/** Options of {@link openProjectIndex}. */
export interface OpenProjectIndexOptions {
  /** The project folder: `documents_dir` and `index_dir` are relative to it. @default process.cwd() */
  cwd?: string;
  /** Where `OPENAI_API_KEY` (for `embeddings: auto`) is read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Receives folder-indexing progress. */
  logger?: IndexLogger;
}

/** A project's open index and what it was opened from. */
export interface ProjectIndex {
  index: DocumentIndex;
  settings: ProjectRagSettings;
  /** Closes the index and the store it was given. */
  close(): Promise<void>;
}

/**
 * Opens the project's `DocumentIndex` as toolkit.yaml's `rag:` section describes it: the
 * embedder (`embeddings`, `embedding_dimensions`), the store (`local`, or `pgvector` at
 * `postgres_url` with tables `postgres_table`), chunking, `documents_dir` and `index_dir`.
 *
 * @example
 * const project = await openProjectIndex(loadConfig({ cwd }), { cwd });
 * await project.index.ingest(bytes, 'handbook.pdf');
 * await project.close();
 */
export async function openProjectIndex(
  config: { extra: Record<string, unknown> },
  options: OpenProjectIndexOptions = {},
): Promise<ProjectIndex> {
  const cwd = options.cwd ?? process.cwd();
  const settings = projectRagSettings(config);
  const model = projectEmbeddingModel(settings, options.env);
  let embedder: Embedder = new HashingEmbedder();
  if (model !== undefined) {
    const dimensions = settings.embedding_dimensions ?? KNOWN_EMBEDDING_DIMENSIONS[model];
    if (dimensions === undefined) {
      throw new ConfigError(
        'rag.embedding_dimensions',
        `is needed for the model ${model}`,
        'toolkit.yaml',
      );
    }
    // The LLM client is loaded only when a model embeds.
    const { LLM } = await import('../../../providers/src/llm/llm.js');
    embedder = new LlmEmbedder(new LLM(model), { id: model, dimensions });
  }
  const store =
    settings.store === 'pgvector'
      ? await PgVectorStore.open({
          url: settings.postgres_url,
          table: settings.postgres_table,
          dimensions: embedder.dimensions,
          embedderId: embedder.id,
        })
      : undefined;
  try {
    const index = await DocumentIndex.open({
      documentsDir: resolve(cwd, settings.documents_dir),
      indexDir: resolve(cwd, settings.index_dir),
      embedder,
      store,
      chunking: { size: settings.chunk_size, overlap: settings.chunk_overlap },
      maxTopK: settings.max_top_k,
      logger: options.logger,
    });
    const close = async (): Promise<void> => {
      await index.close();
      await store?.close();
    };
    return { index, settings, close };
  } catch (error) {
    await store?.close();
    throw error;
  }
}
