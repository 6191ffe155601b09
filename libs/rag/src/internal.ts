// The internal door of libs/rag: the names this repository's CLI (apps/cli) imports from libs/rag
// that are not its public API (`src/index.ts`, the `toolkit/rag` entry point). It is not an entry
// point of the package: package.json's `exports` does not list it, so applications cannot import
// it, and its names may change with any commit.
//
// Another library of this repository imports libs/rag through exactly two doors: `index.js` for
// public names and this file for the rest, never a deeper path (the `no-restricted-imports` block
// of eslint.config.js; see "Conventions" in CONTRIBUTING.md). A new cross-library need is a new
// name here, with an explicit `export { ... }` or `export type { ... }`, not a deep import.

export { listFiles } from './indexing/folder-listing.js';
export type { ListFilesOptions } from './indexing/folder-listing.js';

export { ingestFolderFile } from './queue/ingest-folder-file.js';
