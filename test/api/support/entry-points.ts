/**
 * The package's code entry points and the barrel each one is built from. `package.json`
 * "exports" publishes the compiled barrels; tsconfig `paths` and jest's `moduleNameMapper` map
 * the same names to the sources. (`toolkit/register` is left out: it exports nothing and
 * importing it registers Node loader hooks.)
 */
export const ENTRY_POINTS = {
  toolkit: 'libs/framework/src/index.ts',
  'toolkit/testing': 'libs/testing/src/index.ts',
  'toolkit/providers': 'libs/providers/src/index.ts',
  'toolkit/rag': 'libs/rag/src/index.ts',
  'toolkit/express': 'libs/framework/src/express.ts',
  'toolkit/fastify': 'libs/framework/src/fastify.ts',
} as const;

/** The name a user imports, e.g. `toolkit/testing`. */
export type EntryPoint = keyof typeof ENTRY_POINTS;

/** Every entry point, in the order above. */
export const ENTRY_POINT_NAMES = Object.keys(ENTRY_POINTS) as EntryPoint[];
