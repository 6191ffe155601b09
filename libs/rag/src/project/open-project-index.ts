import { resolve } from 'node:path';
import type { RagSettings } from '../../../framework/src/internal.js';
import { environmentOf } from '../../../framework/src/internal.js';
import type { Embedder } from '../embedding/embedder.interface.js';
import { DocumentIndex } from '../indexing/document-index.js';
import type { IndexLogger } from '../indexing/indexing-progress.js';
import { PgVectorStore } from '../stores/pgvector.store.js';
import type { VectorStore } from '../stores/vector-store.interface.js';
import { projectEmbedder } from './project-embedder.js';

/** Options of {@link openProjectIndex}. */
export interface OpenProjectIndexOptions {
  /** The project folder: `documents_dir` and `index_dir` are relative to it. @default process.cwd() */
  cwd?: string;
  /**
   * Where `OPENAI_API_KEY` (for `embeddings: auto`) is read. @default the environment the
   * configuration was loaded from (`process.env` with the project's `.env`; see `loadConfig`)
   */
  env?: NodeJS.ProcessEnv;
  /** Receives folder-indexing progress. */
  logger?: IndexLogger;
  /** An embedder of your own instead of the one `rag.embeddings` names. */
  embedder?: Embedder;
  /** A vector store of your own instead of the one `rag.store` names (you close it). */
  store?: VectorStore;
}

/** A project's open index and what it was opened from. */
export interface ProjectIndex {
  index: DocumentIndex;
  settings: RagSettings;
  embedder: Embedder;
  /** Closes the index and the store opened for it. */
  close(): Promise<void>;
}

/**
 * Opens the project's `DocumentIndex` as the configuration's `rag:` section describes it: the
 * embedder (`embeddings`, `embedding_dimensions`), the store (`local` with its `index` mode, or
 * `pgvector` at `postgres_url` with tables `postgres_table`), chunking, the relevance floor,
 * `documents_dir` and `index_dir`. `RagModule`, `toolkit ingest` and `toolkit worker` all open
 * the index this way.
 *
 * @example
 * const project = await openProjectIndex(loadConfig({ cwd }), { cwd });
 * await project.index.ingest(bytes, 'handbook.pdf');
 * await project.close();
 */
export async function openProjectIndex(
  config: { rag: RagSettings },
  options: OpenProjectIndexOptions = {},
): Promise<ProjectIndex> {
  const cwd = options.cwd ?? process.cwd();
  const settings = config.rag;
  const embedder =
    options.embedder ?? (await projectEmbedder(settings, options.env ?? environmentOf(config)));
  const ownStore =
    options.store === undefined && settings.store === 'pgvector'
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
      store: options.store ?? ownStore,
      localIndex: settings.index,
      chunking: { size: settings.chunk_size, overlap: settings.chunk_overlap },
      maxTopK: settings.max_top_k,
      minScore: {
        keyword: settings.min_keyword_coverage,
        ...(settings.min_similarity === null ? {} : { vector: settings.min_similarity }),
      },
      logger: options.logger,
      ingestion: {
        timeoutMs: settings.ingest_timeout * 1000,
        memoryMb: Math.floor(settings.ingest_memory / (1024 * 1024)),
        workers: settings.ingest_workers,
      },
      load: {
        maxInflatedBytes: settings.ingest_max_inflated,
        limitSetting: 'rag.ingest_max_inflated',
      },
    });
    const close = async (): Promise<void> => {
      await index.close();
      await ownStore?.close();
    };
    return { index, settings, embedder, close };
  } catch (error) {
    await ownStore?.close();
    throw error;
  }
}
