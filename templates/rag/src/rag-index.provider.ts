import { Inject, Injectable, Logger, type OnModuleDestroy, type Provider } from '@nestjs/common';
import { resolve } from 'node:path';
import { ConfigError, LLM, TOOLKIT_CONFIG, type ToolkitConfig } from 'toolkit';
import {
  DocumentIndex,
  HashingEmbedder,
  LlmEmbedder,
  PgVectorStore,
  type Embedder,
} from 'toolkit/rag';
import { embeddingModel, KNOWN_DIMENSIONS, ragSettings } from './rag-settings.js';

/** Injection token of the app's `DocumentIndex`. */
export const RAG_INDEX = Symbol('RAG_INDEX');

/**
 * Opens the document index (embedder and store chosen by toolkit.yaml's `rag:` section), then
 * indexes docs/documents/ incrementally: unchanged files are not embedded again.
 */
const indexProvider: Provider = {
  provide: RAG_INDEX,
  inject: [TOOLKIT_CONFIG],
  useFactory: async (config: ToolkitConfig): Promise<DocumentIndex> => {
    const logger = new Logger('rag');
    const settings = ragSettings(config);
    const model = embeddingModel(settings);
    let embedder: Embedder = new HashingEmbedder();
    if (model !== undefined) {
      const dimensions = settings.embedding_dimensions ?? KNOWN_DIMENSIONS[model];
      if (dimensions === undefined) {
        throw new ConfigError(
          'rag.embedding_dimensions',
          `is needed for the model ${model}`,
          'toolkit.yaml',
        );
      }
      embedder = new LlmEmbedder(new LLM(model), { id: model, dimensions });
    }
    const store =
      settings.store === 'pgvector'
        ? await PgVectorStore.open({
            url: settings.postgres_url,
            dimensions: embedder.dimensions,
            embedderId: embedder.id,
          })
        : undefined;
    const index = await DocumentIndex.open({
      documentsDir: resolve(settings.documents_dir),
      indexDir: resolve(settings.index_dir),
      embedder,
      store,
      chunking: { size: settings.chunk_size, overlap: settings.chunk_overlap },
      maxTopK: settings.max_top_k,
      minScore: { keyword: settings.min_keyword_coverage, vector: settings.min_similarity },
      logger: (message) => logger.log(message),
    });
    const floor = index.minScore;
    logger.log(
      `retrieval: ${index.mode}, embeddings: ${embedder.id}, store: ${settings.store}, ` +
        `relevance floor: keyword coverage ${floor.keyword}, similarity ${floor.vector.toFixed(2)}`,
    );
    await index.indexFolder();
    return index;
  },
};

/** Closes the index (and its database pool) when the app stops. */
@Injectable()
export class RagIndexLifecycle implements OnModuleDestroy {
  constructor(@Inject(RAG_INDEX) private readonly index: DocumentIndex) {}

  onModuleDestroy(): Promise<void> {
    return this.index.close();
  }
}

export const ragIndexProviders: Provider[] = [indexProvider, RagIndexLifecycle];
