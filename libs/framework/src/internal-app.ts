// The second internal door of libs/framework (see `internal.ts`): what runs a Nest application as
// `App` does, for libs/testing's `createTestingApp`. Apart because it loads Nest's core and
// toolkit's HTTP setup, which the first door's users (`toolkit/rag`, the CLI's commands) do not
// need. Not an entry point of the package.

export { configureNestApp } from './app/configure-app.js';
