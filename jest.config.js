/**
 * Jest runs the TypeScript sources as native ES modules (Nest 12 ships ESM only), compiled by
 * SWC with decorator metadata so Nest's dependency injection works exactly as in the build.
 * The package's own name resolves to the sources, so tests never depend on a stale `dist/`.
 *
 * Two projects: `express` runs every test; `fastify` runs the contract suite again (the
 * framework's end-to-end tests and the hardening suites) with `TOOLKIT_APP_PLATFORM=fastify`,
 * which `App` and `createTestingApp` honour, so toolkit answers the same on both platforms.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    '^toolkit$': '<rootDir>/libs/framework/src/index.ts',
    '^toolkit/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^toolkit/providers$': '<rootDir>/libs/providers/src/index.ts',
    '^toolkit/rag$': '<rootDir>/libs/rag/src/index.ts',
    '^toolkit/express$': '<rootDir>/libs/framework/src/express.ts',
    '^toolkit/fastify$': '<rootDir>/libs/framework/src/fastify.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // The Nest CLI's scaffolds are fixtures: their specs run inside copies of the apps, under
  // the apps' own test commands (test/scaffolds).
  testPathIgnorePatterns: [
    '/node_modules/',
    '/dist/',
    '/test/scaffolds/fixtures/',
    '/test/scaffolds/overlays/',
  ],
  testTimeout: 30000,
};

/** The contract suite: what every platform must answer alike. */
const CONTRACT_SUITE = [
  '<rootDir>/libs/framework/test/**/*.e2e-spec.ts',
  '<rootDir>/test/hardening/{fuzz,hostile-input,faults,sse-pressure,sse-memory,log-secrets}.e2e-spec.ts',
  '<rootDir>/test/platform/**/*.e2e-spec.ts',
];

export default {
  testTimeout: 30000,
  maxWorkers: 2,
  projects: [
    {
      ...shared,
      displayName: 'express',
      roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/examples', '<rootDir>/test'],
      testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
    },
    {
      ...shared,
      displayName: 'fastify',
      roots: ['<rootDir>/libs', '<rootDir>/test'],
      testMatch: CONTRACT_SUITE,
      setupFiles: ['<rootDir>/test/support/fastify-project.setup.ts'],
    },
  ],
};
