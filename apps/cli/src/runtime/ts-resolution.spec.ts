import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPathSpecifier, isTypeScriptUrl, typeScriptCandidate } from './ts-resolution.js';

describe('TypeScript resolution', () => {
  let dir: string;
  let parent: string;
  const url = (...parts: string[]): string => pathToFileURL(join(dir, ...parts)).href;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ts-resolve-'));
    mkdirSync(join(dir, 'lib'));
    for (const file of ['app.ts', 'routes.ts', 'lib/index.ts', 'esm.mts', 'view.tsx'])
      writeFileSync(join(dir, file), '');
    parent = url('app.ts');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('maps .js/.mjs/.jsx specifiers to the TypeScript file beside them', () => {
    expect(typeScriptCandidate('./routes.js', parent)).toBe(url('routes.ts'));
    expect(typeScriptCandidate('./esm.mjs', parent)).toBe(url('esm.mts'));
    expect(typeScriptCandidate('./view.jsx', parent)).toBe(url('view.tsx'));
  });

  it('maps extensionless specifiers and folders, keeping query strings', () => {
    expect(typeScriptCandidate('./routes', parent)).toBe(url('routes.ts'));
    expect(typeScriptCandidate('./lib', parent)).toBe(url('lib', 'index.ts'));
    expect(typeScriptCandidate('./routes.js?v=2', parent)).toBe(`${url('routes.ts')}?v=2`);
  });

  it('returns undefined when there is no TypeScript file either', () => {
    expect(typeScriptCandidate('./missing.js', parent)).toBeUndefined();
    expect(typeScriptCandidate('./missing', parent)).toBeUndefined();
  });

  it('knows which URLs to compile and which specifiers are paths', () => {
    expect(isTypeScriptUrl(url('app.ts'))).toBe(true);
    expect(isTypeScriptUrl(`${url('app.ts')}?x=1`)).toBe(true);
    expect(isTypeScriptUrl(url('types.d.ts'))).toBe(false);
    expect(isTypeScriptUrl(url('app.js'))).toBe(false);
    expect(isTypeScriptUrl('node:fs')).toBe(false);
    expect(isPathSpecifier('./x')).toBe(true);
    expect(isPathSpecifier('../x')).toBe(true);
    expect(isPathSpecifier('/abs/x')).toBe(true);
    expect(isPathSpecifier('toolkit')).toBe(false);
    expect(isPathSpecifier('@nestjs/core')).toBe(false);
  });
});
