/** The test runner a scaffold's own `npm test` and `npm run test:e2e` use. */
export type ScaffoldRunner = 'jest' | 'vitest';

/**
 * One app as the Nest CLI makes it, plus what its developer adds before toolkit comes in.
 * Overlays are folders of `test/scaffolds/overlays/` whose files are copied over the app's,
 * in order, written as in a CommonJS app (relative imports without an extension); in an ES
 * module app (`"type": "module"`) they get the `.js` its `nodenext` resolution needs.
 */
export interface ScaffoldVariant {
  /** Name in test titles and in the numbers file. */
  name: string;
  /** Folder of `test/scaffolds/fixtures/` the app is copied from. */
  fixture: 'nest11' | 'nest12';
  runner: ScaffoldRunner;
  /** What the app's developer installs and removes before toolkit (npm arguments, in order). */
  hostPackages: readonly (readonly string[])[];
  /** The host's own changes: the probe routes, and Fastify for that variant. */
  hostOverlays: readonly string[];
  /** What a developer writes to use toolkit: the chat controller, its specs, the module. */
  toolkitOverlays: readonly string[];
  /** Packages that must not be installed once toolkit is (a Fastify app has no Express). */
  absentPackages: readonly string[];
  /** The `@nestjs/core` version the app keeps once toolkit is installed, when pinned. */
  nestVersion?: string;
}

/** The probe's DTO is checked by class-validator, which Nest's ValidationPipe loads. */
const VALIDATION = ['install', 'class-validator', 'class-transformer'];

/** The scaffolds every CI run checks. */
export const SCAFFOLD_VARIANTS: readonly ScaffoldVariant[] = [
  {
    name: 'nest11',
    fixture: 'nest11',
    runner: 'jest',
    hostPackages: [VALIDATION],
    hostOverlays: ['host/common'],
    toolkitOverlays: ['toolkit/common', 'toolkit/express'],
    absentPackages: [],
  },
  {
    // The lowest Nest toolkit supports (peer range `^11.1.0 || ^12.0.0`), pinned in the app's
    // lock file before toolkit comes in; npm keeps it when toolkit is installed.
    name: 'nest11.1.0',
    fixture: 'nest11',
    runner: 'jest',
    hostPackages: [
      VALIDATION,
      [
        'install',
        '@nestjs/common@11.1.0',
        '@nestjs/core@11.1.0',
        '@nestjs/platform-express@11.1.0',
        '@nestjs/testing@11.1.0',
      ],
    ],
    hostOverlays: ['host/common'],
    toolkitOverlays: ['toolkit/common', 'toolkit/express'],
    absentPackages: [],
    nestVersion: '11.1.0',
  },
  {
    name: 'nest12',
    fixture: 'nest12',
    runner: 'vitest',
    hostPackages: [VALIDATION],
    hostOverlays: ['host/common'],
    toolkitOverlays: ['toolkit/common', 'toolkit/express'],
    absentPackages: [],
  },
  {
    // Nest's "Performance (Fastify)" steps applied to the Nest 11 app: the adapter of the same
    // major, Express removed, main.ts and the e2e spec on FastifyAdapter.
    name: 'nest11-fastify',
    fixture: 'nest11',
    runner: 'jest',
    hostPackages: [
      VALIDATION,
      ['install', '@nestjs/platform-fastify@^11'],
      ['uninstall', '@nestjs/platform-express'],
    ],
    hostOverlays: ['host/common', 'fastify'],
    toolkitOverlays: ['toolkit/common', 'toolkit/fastify'],
    absentPackages: ['@nestjs/platform-express', 'express'],
  },
];

/**
 * The variants a run checks: all of them, or those named in `TOOLKIT_SCAFFOLDS`
 * (comma-separated, e.g. `nest11,nest12`; CI's second Node version runs a part).
 */
export function selectedVariants(
  names: string | undefined = process.env.TOOLKIT_SCAFFOLDS,
): readonly ScaffoldVariant[] {
  if (!names) return SCAFFOLD_VARIANTS;
  const wanted = names.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !SCAFFOLD_VARIANTS.some((v) => v.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `TOOLKIT_SCAFFOLDS names no scaffold ${unknown.join(', ')}; known: ${SCAFFOLD_VARIANTS.map((v) => v.name).join(', ')}`,
    );
  }
  return SCAFFOLD_VARIANTS.filter((variant) => wanted.includes(variant.name));
}
