import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCandidates, locateAppFile, parseAppSpec } from './app-spec.js';

describe('parseAppSpec', () => {
  it.each([
    ['app:app', { module: 'app', exportName: 'app' }],
    ['src/server:api', { module: 'src/server', exportName: 'api' }],
    ['src.server:$app', { module: 'src.server', exportName: '$app' }],
  ])('parses %s', (value, expected) => {
    expect(parseAppSpec(value)).toEqual(expected);
  });

  it.each(['app', ':app', 'app:', 'app:not-an-identifier', 'app:1x'])(
    'refuses %s as a usage error',
    (value) => {
      expect(() => parseAppSpec(value)).toThrow(
        expect.objectContaining({ code: 'commander.invalidArgument' }),
      );
    },
  );
});

describe('locateAppFile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'app-spec-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'app.js'), '');
    writeFileSync(join(dir, 'app.ts'), '');
    writeFileSync(join(dir, 'src', 'server.js'), '');
    mkdirSync(join(dir, 'folder.ts'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers app.ts over app.js', () => {
    expect(locateAppFile(dir, parseAppSpec('app:app'))).toBe(join(dir, 'app.ts'));
  });

  it('finds path and dotted modules, and explicit extensions', () => {
    expect(locateAppFile(dir, parseAppSpec('src/server:app'))).toBe(join(dir, 'src', 'server.js'));
    expect(locateAppFile(dir, parseAppSpec('src.server:app'))).toBe(join(dir, 'src', 'server.js'));
    expect(locateAppFile(dir, parseAppSpec('app.js:app'))).toBe(join(dir, 'app.js'));
  });

  it('returns undefined for missing files and folders, and names the candidates', () => {
    expect(locateAppFile(dir, parseAppSpec('main:app'))).toBeUndefined();
    expect(locateAppFile(dir, parseAppSpec('folder:app'))).toBeUndefined();
    expect(describeCandidates(dir, parseAppSpec('main:app'))).toBe(
      'main.ts, main.mts, main.js or main.mjs',
    );
  });
});
