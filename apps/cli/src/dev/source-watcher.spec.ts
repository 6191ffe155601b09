import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceWatcher } from './source-watcher.js';

describe('SourceWatcher', () => {
  let root: string;
  let watcher: SourceWatcher | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'watcher-'));
    for (const dir of ['src', 'node_modules/pkg', '.git', 'dist', 'coverage'])
      mkdirSync(join(root, dir), { recursive: true });
  });
  afterEach(() => {
    watcher?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Starts a watcher and resolves with the first batch of changes (fails after 10 s). */
  function nextBatch(): { batch: Promise<string[]>; watcher: SourceWatcher } {
    let resolve: (files: string[]) => void = () => undefined;
    const batch = new Promise<string[]>((r) => (resolve = r));
    watcher = new SourceWatcher({ root, debounceMs: 100, onChange: (files) => resolve(files) });
    watcher.start();
    return { batch, watcher };
  }

  it('does not watch ignored folders at all', () => {
    const { watcher: started } = nextBatch();
    // root and src only: node_modules, .git, dist and coverage are skipped before watching.
    expect(started.watchedFolderCount).toBe(2);
  });

  it('reports .ts edits and ignores node_modules, .git, dist, maps, compiled output and .d.ts', async () => {
    const { batch } = nextBatch();
    writeFileSync(join(root, 'node_modules/pkg/index.ts'), '');
    writeFileSync(join(root, 'dist/app.ts'), '');
    writeFileSync(join(root, 'app.js'), '');
    writeFileSync(join(root, 'app.js.map'), '');
    writeFileSync(join(root, 'types.d.ts'), '');
    writeFileSync(join(root, 'src/routes.ts'), 'export {};');
    writeFileSync(join(root, 'app.ts'), 'export {};');
    expect(await batch).toEqual(['app.ts', join('src', 'routes.ts')]);
  });

  it('debounces a burst into one batch and watches folders created later', async () => {
    const { batch, watcher: started } = nextBatch();
    mkdirSync(join(root, 'src/feature'));
    // Wait until the watcher has seen the new folder (root, src, src/feature) before writing into it.
    while (started.watchedFolderCount < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 5; i++)
      writeFileSync(join(root, 'src/feature/a.ts'), `export const n = ${i};`);
    expect(await batch).toEqual([join('src', 'feature', 'a.ts')]);
  });

  it('reports toolkit.yaml, .env and any file under prompts/, but not other config files', async () => {
    mkdirSync(join(root, 'prompts/system'), { recursive: true });
    const { batch, watcher: started } = nextBatch();
    expect(started.watchedFolderCount).toBe(4);
    writeFileSync(join(root, 'package.json'), '{}');
    writeFileSync(join(root, '.env.example'), 'X=1');
    writeFileSync(join(root, 'prompts/.draft.swp'), '');
    writeFileSync(join(root, 'toolkit.yaml'), 'memory:\n  backend: redis\n');
    writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=x\n');
    writeFileSync(join(root, 'prompts/system/tone.md'), 'Be brief.');
    expect(await batch).toEqual(['.env', join('prompts', 'system', 'tone.md'), 'toolkit.yaml']);
  });

  it('isSourceFile follows the same rules', () => {
    const { watcher: started } = nextBatch();
    expect(started.isSourceFile(join(root, 'src/x.ts'))).toBe(true);
    expect(started.isSourceFile(join(root, 'src/x.mts'))).toBe(true);
    expect(started.isSourceFile(join(root, 'src/x.d.ts'))).toBe(false);
    expect(started.isSourceFile(join(root, 'node_modules/x.ts'))).toBe(false);
    expect(started.isSourceFile(join(root, '.cache/x.ts'))).toBe(false);
    expect(started.isSourceFile(join(root, 'src/x.js'))).toBe(false);
  });
});
