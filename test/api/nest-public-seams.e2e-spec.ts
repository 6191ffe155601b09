// Toolkit's sources reach Nest only through its public seams (providers, enhancers, `ModuleRef`,
// `HttpAdapterHost`, `DiscoveryService`, metadata constants): never into the private state behind
// them, such as the container that `ModuleRef` holds or the application's list of global filters.
// Those change between Nest releases without notice, and a toolkit that read them would break on
// an upgrade the application cannot see coming.
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateNestReads } from './support/nest-private-reads.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe("Nest's public seams", () => {
  it.each(['libs/framework/src', 'libs/rag/src', 'libs/testing/src'])(
    'nothing in %s reads Nest’s container or its global filters',
    (dir) => {
      expect(privateNestReads(ROOT, dir)).toEqual([]);
    },
  );
});
