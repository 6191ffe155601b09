import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { Embedder } from '../embedding/embedder.interface.js';
import type { VectorStore } from '../stores/vector-store.interface.js';

/**
 * Options of `RagModule.forRoot()` / `forRootAsync()`; every field is optional. The index itself
 * is described by the configuration's `rag:` section (`toolkit.yaml`, `TOOLKIT_RAG_*`, or
 * `config: { rag }` in code).
 */
export interface RagModuleOptions {
  /**
   * Index the documents folder (`rag.documents_dir`) while the app starts: new and changed files
   * are embedded, unchanged ones skipped, removed ones dropped. @default true
   */
  indexFolder?: boolean;
  /** An embedder of your own instead of the one `rag.embeddings` names. */
  embedder?: Embedder;
  /** A vector store of your own instead of the one `rag.store` names (you close it). */
  store?: VectorStore;
  /**
   * The folder `rag.documents_dir` and `rag.index_dir` are relative to.
   * @default the folder toolkit read `toolkit.yaml` from (`ToolkitModule`'s `cwd`), else process.cwd()
   */
  cwd?: string;
}

export const {
  ConfigurableModuleClass: RagModuleBase,
  MODULE_OPTIONS_TOKEN: RAG_MODULE_OPTIONS,
  OPTIONS_TYPE: RAG_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: RAG_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<RagModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: true }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
  }))
  .build();
