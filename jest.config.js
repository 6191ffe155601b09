/**
 * Jest runs the TypeScript sources as native ES modules (Nest 12 ships ESM only), compiled by
 * SWC with decorator metadata so Nest's dependency injection works exactly as in the build.
 * The package's own name resolves to the sources, so tests never depend on a stale `dist/`.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    '^toolkit$': '<rootDir>/libs/framework/src/index.ts',
    '^toolkit/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^toolkit/providers$': '<rootDir>/libs/providers/src/index.ts',
    '^toolkit/rag$': '<rootDir>/libs/rag/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/examples', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 30000,
  maxWorkers: 2,
};
