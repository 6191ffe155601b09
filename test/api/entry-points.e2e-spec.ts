// Pins what each entry point exports. `test/api/entry-points.json` lists, per entry point, every
// exported name and whether it is a value or a type, as the TypeScript compiler reads them from
// the barrel source; the values are checked against what the module exports at run time too.
// Each name has one entry point: a name exported by two (a value or a type) fails the test.
//
// Changing the public API fails this test with the differences. When the change is deliberate,
// rewrite the snapshot and commit it together with the change:
//
//   UPDATE_API_SNAPSHOT=1 npm run test:unit -- test/api/entry-points
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  diffSnapshots,
  formatSnapshot,
  toSnapshot,
  type ApiSnapshot,
} from './support/api-snapshot.js';
import { ENTRY_POINTS, ENTRY_POINT_NAMES } from './support/entry-points.js';
import { compareNames, readPublicApi, type PublicExport } from './support/public-api.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SNAPSHOT = join(ROOT, 'test/api/entry-points.json');
const UPDATE = process.env.UPDATE_API_SNAPSHOT === '1';

let api: Record<string, PublicExport[]>;
beforeAll(() => {
  api = readPublicApi(ROOT);
});

describe('the public API', () => {
  it('matches test/api/entry-points.json', () => {
    const current = toSnapshot(api);
    if (UPDATE) {
      writeFileSync(SNAPSHOT, formatSnapshot(current));
      return;
    }
    const committed = existsSync(SNAPSHOT)
      ? (JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as ApiSnapshot)
      : {};
    const differences = diffSnapshots(committed, current);
    if (differences.length > 0) {
      throw new Error(
        [
          'The public API differs from test/api/entry-points.json',
          '(+ exported but not in the snapshot, - in the snapshot but no longer exported, ~ kind changed):',
          ...differences,
          '',
          'If the change is deliberate, update the snapshot and commit it with the change:',
          '  UPDATE_API_SNAPSHOT=1 npm run test:unit -- test/api/entry-points',
        ].join('\n'),
      );
    }
  });

  it('exports each name, value or type, from one entry point only', () => {
    const entriesOf = new Map<string, string[]>();
    for (const entry of ENTRY_POINT_NAMES) {
      for (const { name } of api[entry]) {
        entriesOf.set(name, [...(entriesOf.get(name) ?? []), entry]);
      }
    }
    const twice = [...entriesOf]
      .filter(([, entries]) => entries.length > 1)
      .map(([name, entries]) => `${name}: ${entries.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it.each(ENTRY_POINT_NAMES)(
    '%s exports at run time exactly the values its barrel declares',
    async (entry) => {
      const module = (await import(entry)) as Record<string, unknown>;
      const declared = api[entry].filter((e) => e.kind === 'value').map((e) => e.name);
      expect(Object.keys(module).sort(compareNames)).toEqual(declared);
    },
  );

  it('is what package.json publishes: each entry point is its compiled barrel, ES and CommonJS', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const published = Object.fromEntries(
      ENTRY_POINT_NAMES.map((entry) => {
        const barrel = ENTRY_POINTS[entry].replace(/\.ts$/, '');
        const esm = { types: `./dist/${barrel}.d.ts`, default: `./dist/${barrel}.js` };
        const cjs = { types: `./dist/cjs/${barrel}.d.ts`, default: `./dist/cjs/${barrel}.js` };
        // Node takes `module-sync` for require() too (one copy per process); tools that cannot
        // load ES modules (jest's CommonJS mode) take `require`.
        const conditions = { 'module-sync': esm, import: esm, require: cjs, default: esm };
        return [`.${entry.slice('toolkit'.length)}`, conditions];
      }),
    );
    const { './register': _register, './package.json': _manifest, ...code } = pkg.exports;
    expect(code).toEqual(published);
    for (const conditions of Object.values(code)) {
      expect(Object.keys(conditions as object)).toEqual([
        'module-sync',
        'import',
        'require',
        'default',
      ]);
    }
  });
});
