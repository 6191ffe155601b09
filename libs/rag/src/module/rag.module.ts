import { Module, type DynamicModule } from '@nestjs/common';
import { Embedder } from '../embedding/embedder.interface.js';
import { DocumentIndex } from '../indexing/document-index.js';
import {
  RAG_ASYNC_OPTIONS_TYPE,
  RAG_OPTIONS_TYPE,
  RagModuleBase,
  type RagModuleOptions,
} from './rag.module-definition.js';
import { ragProviders } from './rag.providers.js';

/**
 * Retrieval-augmented generation as a Nest module: opens the document index the configuration's
 * `rag:` section describes (embedder, local or pgvector store, chunking, relevance floor),
 * indexes the documents folder at start-up, closes it on shutdown, and makes `DocumentIndex`
 * and `Embedder` injectable. Global by default; it reads `TOOLKIT_CONFIG` when `ToolkitModule`
 * (or `App`) is there, and `toolkit.yaml` itself otherwise.
 *
 * @example
 * @Module({ imports: [ToolkitModule.forRoot(), RagModule.forRoot()], controllers: [AskController] })
 * export class AppModule {}
 *
 * @Controller()
 * class AskController {
 *   constructor(private readonly index: DocumentIndex) {}
 *   @Get('/search') search(@Query('q') q: string) { return this.index.search(q, 5); }
 * }
 */
@Module({ providers: ragProviders, exports: [DocumentIndex, Embedder] })
export class RagModule extends RagModuleBase {
  /** The index with options given in code (all optional). */
  static override forRoot(options: typeof RAG_OPTIONS_TYPE = {}): DynamicModule {
    return super.forRoot(options);
  }

  /**
   * The index with options resolved by DI (`useFactory` + `inject`, `useClass` or
   * `useExisting`); with none of them it behaves as `forRoot()`.
   */
  static override forRootAsync(options: typeof RAG_ASYNC_OPTIONS_TYPE = {}): DynamicModule {
    const resolved =
      options.useFactory || options.useClass || options.useExisting
        ? options
        : { ...options, useFactory: (): RagModuleOptions => ({}) };
    return super.forRootAsync(resolved);
  }
}
