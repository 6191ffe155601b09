// The internal door of libs/framework: the names this repository's libs/rag, libs/testing and the
// CLI (apps/cli) import from libs/framework that are not its public API (`src/index.ts`, the
// `toolkit` entry point), and the few public ones they need without loading that barrel (it
// loads Nest's core: `toolkit/rag` and the CLI's commands stay light). Some are public through
// `toolkit/rag` (the RAG settings types), whose barrel re-exports them from here. It is not an
// entry point of the package: package.json's `exports` does not list it, so applications cannot
// import it, and its names may change with any commit. What runs a Nest application as `App`
// does (it loads Nest's core) is in the second door, `internal-app.ts`.
//
// Another library of this repository imports libs/framework through these doors only: `index.js`
// for public names, this file and `internal-app.js` for the rest, never a deeper path (the
// `no-restricted-imports` block of eslint.config.js; see "Conventions" in CONTRIBUTING.md). A new
// cross-library need is a new name here, with an explicit `export { ... }` or
// `export type { ... }`, not a deep import.

export { environmentOf } from './config/config-environment.js';
export { loadConfig } from './config/config.loader.js';
export type { RagIndexKind, RagSettings, RagStoreKind } from './config/rag-settings.js';

export type { PlatformName } from './http/platform/http-platform.js';
export { installedPlatform } from './http/platform/installed-platform.js';
export { PLATFORM_PACKAGES, createHttpAdapter } from './http/platform/platform-adapter.js';

export { watchRequests } from './logging/request-watchers.js';

export { serveToolsOverStdio } from './mcp/server/serve-tools-over-stdio.js';

export { TOOLKIT_MODULE_OPTIONS } from './module/toolkit.module-definition.js';
export { TOOLKIT_CONFIG } from './toolkit.constants.js';

export { installMetricsWhenOn } from './telemetry/metrics-switch.js';
export { installTracingWhenOn } from './telemetry/tracing-switch.js';
