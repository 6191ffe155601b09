import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../apps/cli/test/support/cli-process.js';
import { packToolkit } from '../integration/support/toolkit-tarball.js';

/** The package's library entry points (`./register` is the CLI's ES-only loader hook). */
const LIBRARIES = [
  'toolkit',
  'toolkit/testing',
  'toolkit/rag',
  'toolkit/providers',
  'toolkit/express',
  'toolkit/fastify',
];

/** Runs a CommonJS script in the repository, where `toolkit` resolves to this package itself. */
async function runCommonJs(script: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=commonjs', '-e', script],
    { cwd: REPO_ROOT, timeout: 60_000 },
  );
  return JSON.parse(stdout) as unknown;
}

/**
 * The packed package as CommonJS and ES module consumers load it: types that resolve under every
 * module resolution TypeScript has, one copy per process in Node, and a CommonJS build (what
 * jest's CommonJS mode loads) with exactly the ES build's exports.
 */
describe('the package for CommonJS and ES module consumers', () => {
  let dir: string;
  let tarball: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolkit-pack-'));
    tarball = await packToolkit(dir);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has types for node10, node16 (CommonJS and ESM) and bundler resolution (arethetypeswrong)', async () => {
    const result = await checkPackage(
      createPackageFromTarballData(new Uint8Array(readFileSync(tarball))),
      { excludeEntrypoints: ['./register'] },
    );
    expect(result.types).not.toBe(false);
    if (result.types === false) return;
    expect(result.problems).toEqual([]);
    const barrels: Record<string, string> = {
      '.': 'libs/framework/src/index',
      './testing': 'libs/testing/src/index',
      './rag': 'libs/rag/src/index',
      './providers': 'libs/providers/src/index',
      './express': 'libs/framework/src/express',
      './fastify': 'libs/framework/src/fastify',
    };
    for (const [entry, barrel] of Object.entries(barrels)) {
      const resolved = Object.fromEntries(
        Object.entries(result.entrypoints[entry].resolutions).map(([kind, resolution]) => [
          kind,
          resolution.resolution?.fileName.replace('/node_modules/toolkit/', ''),
        ]),
      );
      expect({ entry, resolved }).toEqual({
        entry,
        resolved: {
          node10: `dist/cjs/${barrel}.d.ts`,
          'node16-cjs': `dist/cjs/${barrel}.d.ts`,
          'node16-esm': `dist/${barrel}.d.ts`,
          bundler: `dist/${barrel}.d.ts`,
        },
      });
    }
  });

  it('gives require() and import() in one Node process the same module: one copy of each class', async () => {
    const same = await runCommonJs(`
      (async () => {
        const result = {};
        for (const name of ${JSON.stringify(LIBRARIES)}) {
          const required = require(name);
          const imported = await import(name);
          const names = Object.keys(imported).filter((key) => key !== 'default');
          result[name] = {
            file: require.resolve(name).slice(${JSON.stringify(REPO_ROOT.length)}),
            exports: names.length,
            different: names.filter((key) => required[key] !== imported[key]),
          };
        }
        // toolkit and toolkit/providers load one copy of the providers' modules: one class each.
        result.shared =
          require('toolkit/providers').LlmError.prototype instanceof require('toolkit').ToolkitError;
        console.log(JSON.stringify(result));
      })();`);
    expect(same).toMatchObject({
      toolkit: { file: 'dist/libs/framework/src/index.js', different: [] },
      'toolkit/testing': { file: 'dist/libs/testing/src/index.js', different: [] },
      'toolkit/rag': { file: 'dist/libs/rag/src/index.js', different: [] },
      'toolkit/providers': { file: 'dist/libs/providers/src/index.js', different: [] },
      'toolkit/express': { file: 'dist/libs/framework/src/express.js', different: [] },
      'toolkit/fastify': { file: 'dist/libs/framework/src/fastify.js', different: [] },
      shared: true,
    });
  });

  it('builds a CommonJS copy with exactly the exports of the ES build', async () => {
    const names = await runCommonJs(`
      (async () => {
        const result = {};
        const barrels = ['framework/src/index', 'testing/src/index', 'rag/src/index',
          'providers/src/index', 'framework/src/express', 'framework/src/fastify'];
        for (const lib of barrels) {
          const file = 'libs/' + lib + '.js';
          const cjs = Object.keys(require('./dist/cjs/' + file)).sort();
          const esm = Object.keys(await import('./dist/' + file)).sort();
          result[lib] = { cjs, esm };
        }
        console.log(JSON.stringify(result));
      })();`);
    for (const [lib, { cjs, esm }] of Object.entries(
      names as Record<string, { cjs: string[]; esm: string[] }>,
    )) {
      expect({ lib, names: cjs }).toEqual({ lib, names: esm });
      expect(esm.length).toBeGreaterThan(lib.endsWith('/index') ? 5 : 0);
    }
  });
});
