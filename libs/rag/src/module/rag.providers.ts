import { Inject, Injectable, Logger, type OnModuleDestroy, type Provider } from '@nestjs/common';
import type { ToolkitConfig, ToolkitModuleOptions } from '../../../framework/src/index.js';
import {
  loadConfig,
  TOOLKIT_CONFIG,
  TOOLKIT_MODULE_OPTIONS,
} from '../../../framework/src/internal.js';
import { Embedder } from '../embedding/embedder.interface.js';
import { DocumentIndex } from '../indexing/document-index.js';
import { openProjectIndex, type ProjectIndex } from '../project/open-project-index.js';
import { RAG_MODULE_OPTIONS, type RagModuleOptions } from './rag.module-definition.js';

/** The opened project index (index, embedder, settings, close) the module's providers share. */
export const RAG_PROJECT = Symbol('RAG_PROJECT');

const projectProvider: Provider = {
  provide: RAG_PROJECT,
  inject: [
    RAG_MODULE_OPTIONS,
    { token: TOOLKIT_CONFIG, optional: true },
    { token: TOOLKIT_MODULE_OPTIONS, optional: true },
  ],
  useFactory: async (
    options: RagModuleOptions,
    config: ToolkitConfig | undefined,
    toolkit: ToolkitModuleOptions | undefined,
  ): Promise<ProjectIndex> => {
    const cwd = options.cwd ?? toolkit?.cwd ?? process.cwd();
    const logger = new Logger('rag');
    const project = await openProjectIndex(config ?? loadConfig({ cwd }), {
      cwd,
      embedder: options.embedder,
      store: options.store,
      logger: (message) => logger.log(message),
    });
    const { index, settings, embedder } = project;
    const floor = index.minScore;
    logger.log(
      `retrieval: ${index.mode}, embeddings: ${embedder.id}, store: ${options.store ? 'given' : settings.store}, ` +
        `relevance floor: keyword coverage ${floor.keyword}, similarity ${floor.vector.toFixed(2)}`,
    );
    if (options.indexFolder === false) return project;
    try {
      await index.indexFolder();
    } catch (error) {
      await project.close();
      throw error;
    }
    return project;
  },
};

/** Closes the index (and the store it opened) when the app stops. */
@Injectable()
export class RagLifecycle implements OnModuleDestroy {
  constructor(@Inject(RAG_PROJECT) private readonly project: ProjectIndex) {}

  onModuleDestroy(): Promise<void> {
    return this.project.close();
  }
}

/** The project index, its `DocumentIndex` and its `Embedder`, and the lifecycle closing them. */
export const ragProviders: Provider[] = [
  projectProvider,
  RagLifecycle,
  {
    provide: DocumentIndex,
    inject: [RAG_PROJECT],
    useFactory: (project: ProjectIndex) => project.index,
  },
  {
    provide: Embedder,
    inject: [RAG_PROJECT],
    useFactory: (project: ProjectIndex) => project.embedder,
  },
];
