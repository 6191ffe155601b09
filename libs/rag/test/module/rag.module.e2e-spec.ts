// RagModule in Nest applications: the index the `rag:` section describes, injectable, indexed at
// start-up and closed on shutdown, with ToolkitModule, without it, and from forRootAsync.
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Get,
  Injectable,
  Module,
  Query,
  type INestApplication,
  type ModuleMetadata,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolkitModule } from 'toolkit';
import { DocumentIndex, Embedder, RagModule } from 'toolkit/rag';
import { CountingEmbedder } from '../support/counting-embedder.js';
import { dropStoreTables, POSTGRES_URL, uniqueTablePrefix } from '../support/postgres.js';

const TEA = 'Green tea is steeped at 80 degrees Celsius for two minutes; boiling water burns it.';
const BIKES = 'A flat bicycle tyre is fixed with a rubber patch after finding the puncture.';

const roots: string[] = [];
const apps: INestApplication[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project folder with toolkit.yaml and two documents in docs/documents. */
function projectDir(yaml = ''): string {
  const root = mkdtempSync(join(tmpdir(), 'tk-rag-module-'));
  roots.push(root);
  mkdirSync(join(root, 'docs/documents'), { recursive: true });
  writeFileSync(join(root, 'docs/documents/tea.txt'), TEA);
  writeFileSync(join(root, 'docs/documents/bikes.txt'), BIKES);
  writeFileSync(join(root, 'toolkit.yaml'), `rag:\n  embeddings: offline\n${yaml}`);
  return root;
}

@Controller()
class SearchController {
  constructor(private readonly index: DocumentIndex) {}

  @Get('/search')
  async search(@Query('q') q: string) {
    return (await this.index.search(q, 3)).map((r) => r.document.filename);
  }
}

async function start(imports: ModuleMetadata['imports']): Promise<INestApplication> {
  @Module({ imports, controllers: [SearchController] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
  apps.push(app);
  await app.init();
  return app;
}

describe('RagModule', () => {
  it('opens the index from toolkit.yaml beside ToolkitModule and indexes the folder at start-up', async () => {
    const cwd = projectDir('  min_keyword_coverage: 0.2\n  index_dir: .index\n');
    const app = await start([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()]);
    const index = app.get(DocumentIndex);
    expect((await index.listDocuments()).map((d) => d.filename).sort()).toEqual([
      'bikes.txt',
      'tea.txt',
    ]);
    expect(index.minScore.keyword).toBe(0.2);
    expect(app.get(Embedder).id).toMatch(/^hashing/);
    const results = await index.search('how hot for green tea', 3);
    expect(results[0].document.filename).toBe('tea.txt');
    // Nothing in the documents is about taxes: the relevance floor leaves no source.
    expect(await index.search('quarterly tax return deadline', 3)).toEqual([]);
  });

  it('reads TOOLKIT_RAG_* overrides through the configuration', async () => {
    const cwd = projectDir();
    process.env.TOOLKIT_RAG_MAX_TOP_K = '2';
    try {
      const app = await start([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()]);
      await expect(app.get(DocumentIndex).search('tea', 3)).rejects.toMatchObject({
        details: [{ param: 'top_k', problem: 'must be an integer from 1 to 2 (got 3)' }],
      });
    } finally {
      delete process.env.TOOLKIT_RAG_MAX_TOP_K;
    }
  });

  it('works without ToolkitModule, reading toolkit.yaml in its own cwd', async () => {
    const cwd = projectDir('  min_keyword_coverage: 0\n');
    const app = await start([RagModule.forRoot({ cwd })]);
    expect(app.get(DocumentIndex).minScore.keyword).toBe(0);
    expect(await app.get(DocumentIndex).listDocuments()).toHaveLength(2);
  });

  it('takes an embedder from forRootAsync, and can leave the folder for later', async () => {
    const cwd = projectDir();
    @Injectable()
    class EmbedderSource {
      readonly embedder = new CountingEmbedder();
    }
    @Module({ providers: [EmbedderSource], exports: [EmbedderSource] })
    class EmbedderModule {}
    const app = await start([
      ToolkitModule.forRoot({ cwd }),
      RagModule.forRootAsync({
        imports: [EmbedderModule],
        inject: [EmbedderSource],
        useFactory: (source: EmbedderSource) => ({ embedder: source.embedder, indexFolder: false }),
      }),
    ]);
    const embedder = app.get(EmbedderSource).embedder;
    expect(app.get(Embedder)).toBe(embedder);
    expect(await app.get(DocumentIndex).listDocuments()).toEqual([]);
    expect(embedder.embedded).toEqual([]);
    await app.get(DocumentIndex).indexFolder();
    expect(embedder.embedded.length).toBeGreaterThan(0);
  });

  it('closes the index on shutdown, so the same folder opens again', async () => {
    const cwd = projectDir();
    const first = await start([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()]);
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const second = await start([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()]);
    expect(await second.get(DocumentIndex).listDocuments()).toHaveLength(2);
  });

  it('refuses a model of unknown size with one line naming rag.embedding_dimensions', async () => {
    const cwd = projectDir();
    writeFileSync(join(cwd, 'toolkit.yaml'), 'rag:\n  embeddings: my-own-embedder\n');
    await expect(start([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()])).rejects.toThrow(
      'rag.embedding_dimensions is needed for the model my-own-embedder',
    );
  });

  it('opens a pgvector store with the configured table prefix and closes its pool', async () => {
    const table = uniqueTablePrefix('module');
    const cwd = projectDir(
      `  store: pgvector\n  postgres_url: ${POSTGRES_URL}\n  postgres_table: ${table}\n`,
    );
    try {
      const app = await start([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()]);
      expect(await app.get(DocumentIndex).listDocuments()).toHaveLength(2);
      await app.close();
      apps.splice(apps.indexOf(app), 1);
    } finally {
      await dropStoreTables(table);
    }
  });

  it('lets a @nestjs/testing module replace the index', async () => {
    const cwd = projectDir();
    const fake = { search: () => Promise.resolve([{ document: { filename: 'fake.txt' } }]) };
    const moduleRef = await Test.createTestingModule({
      imports: [ToolkitModule.forRoot({ cwd }), RagModule.forRoot({ indexFolder: false })],
      controllers: [SearchController],
    })
      .overrideProvider(DocumentIndex)
      .useValue(fake)
      .compile();
    const app = moduleRef.createNestApplication({ logger: false });
    apps.push(app);
    await app.init();
    expect(await app.get(SearchController).search('anything')).toEqual(['fake.txt']);
  });
});
