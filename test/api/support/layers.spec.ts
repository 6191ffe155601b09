import { describe, expect, it } from '@jest/globals';
import { importedSpecifiers, layerOf } from './layers.js';

const ROOT = '/repo';
const IMPORTER = '/repo/libs/providers/src/cache/cache-store.factory.ts';

describe('importedSpecifiers', () => {
  it('finds imports, type-only imports, re-exports, dynamic imports and require()', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export type { D } from './d.js';",
      "const e = await import('./e.js');",
      "const f = require('f');",
    ].join('\n');
    expect(importedSpecifiers(text)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './d.js',
      './e.js',
      'f',
    ]);
  });
});

describe('layerOf', () => {
  it('places relative paths in the library they reach', () => {
    expect(layerOf('../../../framework/src/config/x.js', IMPORTER, ROOT)).toBe('framework');
    expect(layerOf('../../../testing/src/index.js', IMPORTER, ROOT)).toBe('testing');
    expect(layerOf('./cache-settings.js', IMPORTER, ROOT)).toBe('providers');
  });

  it('counts the build in dist/ as the library it was built from', () => {
    expect(layerOf('../../../../dist/libs/framework/src/index.js', IMPORTER, ROOT)).toBe(
      'framework',
    );
  });

  it("maps the package's own names to their libraries", () => {
    expect(layerOf('toolkit', IMPORTER, ROOT)).toBe('framework');
    expect(layerOf('toolkit/testing', IMPORTER, ROOT)).toBe('testing');
    expect(layerOf('toolkit/rag', IMPORTER, ROOT)).toBe('rag');
  });

  it('ignores npm packages, built-ins and folders outside the libraries', () => {
    expect(layerOf('ioredis', IMPORTER, ROOT)).toBeUndefined();
    expect(layerOf('node:fs', IMPORTER, ROOT)).toBeUndefined();
    expect(layerOf('../../../../test/support/x.js', IMPORTER, ROOT)).toBeUndefined();
  });
});
