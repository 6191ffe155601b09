// toolkit/express: Nest's Express adapter with toolkit's return rules. Its own entry point, so
// that importing `toolkit` does not load @nestjs/platform-express (an optional peer). The list
// is pinned by test/api/entry-points.e2e-spec.ts (snapshot: test/api/entry-points.json).
export { ToolkitExpressAdapter } from './http/platform/toolkit-express-adapter.js';
