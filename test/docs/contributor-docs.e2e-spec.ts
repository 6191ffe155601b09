// The contributor documents describe the code as it is: every repository path they write in
// backticks exists, every relative link resolves, every `npm run` script is in package.json, and
// they hold no TypeScript or JavaScript block (only the README's are compiled, by
// readme-snippets.e2e-spec.ts). A moved or renamed file fails here until the documents follow.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkReferences, looksLikePath, readReferences } from './support/doc-references.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPTS = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe.each(['ARCHITECTURE.md', 'CONTRIBUTING.md'])('%s', (doc) => {
  const refs = readReferences(readFileSync(join(ROOT, doc), 'utf8'));
  const problems = checkReferences(refs, ROOT, doc, SCRIPTS);

  it('names only repository paths that exist', () => {
    expect(refs.paths.length).toBeGreaterThan(20);
    expect(problems.missingPaths).toEqual([]);
  });

  it('links only to files that exist', () => {
    expect(refs.links.length).toBeGreaterThan(0);
    expect(problems.missingLinks).toEqual([]);
  });

  it('runs only npm scripts that package.json has', () => {
    expect(refs.scripts.length).toBeGreaterThan(0);
    expect(problems.unknownScripts).toEqual([]);
  });

  it('holds no TypeScript or JavaScript block', () => {
    expect(problems.codeBlocks).toEqual([]);
  });
});

describe('the contributor-docs check', () => {
  it('tells repository paths from package names, media types, placeholders and URLs', () => {
    expect(looksLikePath('apps/cli/src/main.ts')).toBe(true);
    expect(looksLikePath('bench/')).toBe(true);
    expect(looksLikePath('toolkit/express')).toBe(false);
    expect(looksLikePath('text/plain')).toBe(false);
    expect(looksLikePath('apps/cli/src/commands/<name>.command.ts')).toBe(false);
    expect(looksLikePath('@nestjs/*/internal')).toBe(false);
    expect(looksLikePath('https://example.com/a.md')).toBe(false);
    expect(looksLikePath('package.json')).toBe(false);
  });

  it('reports each missing path, broken link, unknown script and code block', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contributor-docs-'));
    try {
      writeFileSync(join(dir, 'present.md'), '# here\n');
      const markdown = [
        'See `apps/cli/src/main.ts`, `libs/nowhere/gone.ts` and `dist/cjs/index.js` (build output).',
        'Read [the present file](present.md#top), [a missing one](docs/missing.md) and',
        '[the site](https://example.com/x.md).',
        '',
        '```bash',
        'npm run lint && npm run no-such-script',
        '```',
        '',
        '```ts',
        'const x = 1;',
        '```',
        '',
        '  ```js',
        '  let y = 2;',
        '  ```',
      ].join('\n');
      const refs = readReferences(markdown);
      expect(refs.paths).toEqual(['apps/cli/src/main.ts', 'libs/nowhere/gone.ts']);
      expect(refs.links).toEqual(['present.md', 'docs/missing.md']);
      expect(refs.scripts).toEqual(['lint', 'no-such-script']);

      const checked = checkReferences(refs, ROOT, 'CONTRIBUTING.md', SCRIPTS);
      expect(checked.missingPaths).toEqual(['libs/nowhere/gone.ts']);
      expect(checked.unknownScripts).toEqual(['no-such-script']);
      expect(checked.codeBlocks).toEqual(['```ts at line 9', '```js at line 13']);
      // Links resolve from the document's own folder.
      expect(checkReferences(refs, dir, 'present.md', SCRIPTS).missingLinks).toEqual([
        'docs/missing.md',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
