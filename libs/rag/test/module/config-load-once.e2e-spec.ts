// One configuration load per application: App, ToolkitModule and RagModule share the object
// `App` resolved (toolkit.yaml and .env are read once), and each module loads alone only when
// nothing resolved it before.
import { afterEach, describe, expect, it } from '@jest/globals';
import { Module, type INestApplication, type ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TOOLKIT_CONFIG, ToolkitModule, type ToolkitConfig } from 'toolkit';
import { DocumentIndex, RagModule } from 'toolkit/rag';

/** A variable every load of the configuration reads exactly once, and nothing else reads. */
const PROBE = 'TOOLKIT_RAG_CHUNK_SIZE';

const roots: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function projectDir(rag = ''): string {
  const root = mkdtempSync(join(tmpdir(), 'tk-config-once-'));
  roots.push(root);
  mkdirSync(join(root, 'docs/documents'), { recursive: true });
  writeFileSync(join(root, 'docs/documents/tea.txt'), 'Green tea is steeped at 80 degrees.');
  writeFileSync(join(root, 'toolkit.yaml'), `rag:\n  embeddings: offline\n${rag}`);
  return root;
}

/** How many times the configuration was loaded while `start` ran (reads of {@link PROBE}). */
async function countLoads(start: () => Promise<void>): Promise<number> {
  const original = process.env;
  let loads = 0;
  process.env = new Proxy(original, {
    get(target, name, receiver) {
      if (name === PROBE) loads += 1;
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
  try {
    await start();
  } finally {
    process.env = original;
  }
  return loads;
}

async function startNest(imports: ModuleMetadata['imports']): Promise<INestApplication> {
  @Module({ imports })
  class AppModule {}
  const nest = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
  closers.push(() => nest.close());
  await nest.init();
  return nest;
}

describe('configuration load', () => {
  it('happens once for an App with RagModule, which reads the same object', async () => {
    const cwd = projectDir('  max_top_k: 2\n');
    const app = new App({ cwd, logger: false, imports: [RagModule.forRoot()] });
    closers.push(() => app.close());
    const loads = await countLoads(async () => {
      await app.init();
    });
    expect(loads).toBe(1);
    const config = await app.get<ToolkitConfig>(TOOLKIT_CONFIG);
    expect(config.rag.max_top_k).toBe(2);
    const index = (await app.init()).get(DocumentIndex);
    expect(await index.listDocuments()).toHaveLength(1);
    await expect(index.search('tea', 3)).rejects.toMatchObject({
      details: [{ param: 'top_k', problem: 'must be an integer from 1 to 2 (got 3)' }],
    });
  });

  it("gives RagModule the App's options from code through the shared object", async () => {
    const cwd = projectDir();
    const app = new App({
      cwd,
      logger: false,
      config: { rag: { max_top_k: 3 } },
      imports: [RagModule.forRoot({ indexFolder: false })],
    });
    closers.push(() => app.close());
    expect(await countLoads(async () => void (await app.init()))).toBe(1);
    expect((await app.config()).rag.max_top_k).toBe(3);
    await expect((await app.init()).get(DocumentIndex).search('tea', 4)).rejects.toMatchObject({
      details: [{ param: 'top_k', problem: 'must be an integer from 1 to 3 (got 4)' }],
    });
  });

  it('happens once in ToolkitModule when a Nest application imports it beside RagModule', async () => {
    const cwd = projectDir();
    const loads = await countLoads(async () => {
      await startNest([ToolkitModule.forRoot({ cwd }), RagModule.forRoot()]);
    });
    expect(loads).toBe(1);
  });

  it('happens once in RagModule when no ToolkitModule resolved it', async () => {
    const cwd = projectDir();
    const loads = await countLoads(async () => {
      await startNest([RagModule.forRoot({ cwd })]);
    });
    expect(loads).toBe(1);
  });
});
