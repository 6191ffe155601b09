import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.demo/**',
      'coverage/**',
      'node_modules/**',
      'site/**',
      'test-artifacts/**',
      // Template tests and config run inside generated projects; their sources are linted here.
      'templates/*/tests/**',
      'templates/_shared/**',
      // README blocks written out by test/docs while they run.
      'test/docs/.snippets-*/**',
      // Apps as the Nest CLI generated them (kept byte for byte) and the files the scaffold tests
      // copy into them: each app's own TypeScript compiles them, in its module system.
      'test/scaffolds/fixtures/**',
      'test/scaffolds/overlays/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // One door per library: a library's or the CLI's sources reach another library only through
    // its public barrel (`src/index.js`) or its internal doors (`src/internal.js`, and for
    // libs/framework `src/internal-app.js`, which loads Nest's core), never a deeper
    // path (CONTRIBUTING.md, "Conventions"). Paths inside a library never contain `<lib>/src/`, so
    // they are not matched. Unit specs beside the code are tests and may reach further. The rule
    // reads import and export declarations, not `import()` calls; the one cross-library `import()`
    // of the sources (libs/rag/src/project/project-embedder.ts) goes through a door all the same.
    // One exception, disabled on its line: libs/rag/src/rag.errors.ts imports formatBytes from
    // libs/framework/src/http/format-bytes.ts, since the parser worker threads load that file
    // and the framework's door would load Nest into each of them.
    files: ['libs/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ['providers', 'framework', 'rag', 'testing'].map((lib) => ({
            group: [
              `**/${lib}/src/**`,
              `!**/${lib}/src/index.js`,
              `!**/${lib}/src/internal.js`,
              `!**/${lib}/src/internal-app.js`,
            ],
            message: `Import libs/${lib} through its src/index.js (public names) or src/internal.js (the rest); see "Conventions" in CONTRIBUTING.md.`,
          })),
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
      'require-yield': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
