import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe("generated projects' jest configuration", () => {
  let dir: string;

  beforeAll(() => {
    // Inside the repository, so jest resolves @swc/jest from toolkit's node_modules.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    dir = mkdtempSync(join(ROOT, '.tmp', 'jest-config-'));
    copyFileSync(join(ROOT, 'templates/_shared/jest.config.js'), join(dir, 'jest.config.js'));
    writeFileSync(join(dir, 'package.json'), '{"name":"generated","type":"module"}\n');
    mkdirSync(join(dir, 'tests/nested'), { recursive: true });
    for (const file of ['chat.spec.ts', 'tools.test.ts', 'nested/deep.test.ts', 'helper.ts'])
      writeFileSync(join(dir, 'tests', file), 'export {};\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs tests/**/*.spec.ts and tests/**/*.test.ts, and nothing else', () => {
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/jest/bin/jest.js'), '--listTests', '--rootDir', dir],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    const listed = result.stdout
      .trim()
      .split('\n')
      .map((path) => path.slice(dir.length + 1))
      .sort();
    expect(listed).toEqual([
      'tests/chat.spec.ts',
      'tests/nested/deep.test.ts',
      'tests/tools.test.ts',
    ]);
  });
});
