// toolkit/fastify: Nest's Fastify adapter with toolkit's return rules. Its own entry point, so
// that importing `toolkit` does not load @nestjs/platform-fastify (an optional peer). The list
// is pinned by test/api/entry-points.e2e-spec.ts (snapshot: test/api/entry-points.json).
export { ToolkitFastifyAdapter } from './http/platform/toolkit-fastify-adapter.js';
