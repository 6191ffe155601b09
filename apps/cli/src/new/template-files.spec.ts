import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listTemplateFiles, projectPath } from './template-files.js';

describe('projectPath', () => {
  it.each([
    ['app.ts.hbs', 'app.ts'],
    ['env.hbs', '.env'],
    ['gitignore', '.gitignore'],
    ['npmrc', '.npmrc'],
    ['src/chat.controller.ts', 'src/chat.controller.ts'],
    ['docs/index.md.hbs', 'docs/index.md'],
    ['docs/documents/.gitkeep', 'docs/documents/.gitkeep'],
    ['config/env.hbs', 'config/.env'],
    ['public/logo.png', 'public/logo.png'],
  ])('%s → %s', (source, expected) => {
    expect(projectPath(source)).toBe(expected);
  });
});

describe('listTemplateFiles', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'toolkit-template-files-'));
    for (const file of ['b.txt', 'a/z.ts', 'a/.keep', 'partials/run.hbs', 'x/partials/kept.hbs']) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), file);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists every file, sorted, with / separators', () => {
    expect(listTemplateFiles(root)).toEqual([
      'a/.keep',
      'a/z.ts',
      'b.txt',
      'partials/run.hbs',
      'x/partials/kept.hbs',
    ]);
  });

  it('skips only top-level folders named in skip', () => {
    expect(listTemplateFiles(root, ['partials'])).toEqual([
      'a/.keep',
      'a/z.ts',
      'b.txt',
      'x/partials/kept.hbs',
    ]);
  });
});
