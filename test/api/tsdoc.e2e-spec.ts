// Every export of every entry point says what it is for: its declaration (each one, for a name
// that is both an interface and an injection token) has a TSDoc comment with a description.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRY_POINT_NAMES } from './support/entry-points.js';
import { readPublicApi, type PublicExport } from './support/public-api.js';
import { locationOf, undocumentedDeclarations } from './support/tsdoc.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

let api: Record<string, PublicExport[]>;
beforeAll(() => {
  api = readPublicApi(ROOT);
});

describe('TSDoc on the public API', () => {
  it.each(ENTRY_POINT_NAMES)('documents every export of %s', (entry) => {
    const undocumented = api[entry].flatMap((exported) =>
      undocumentedDeclarations(exported).map(
        (declaration) => `${exported.name} (${locationOf(declaration, ROOT)})`,
      ),
    );
    expect(undocumented).toEqual([]);
  });
});
