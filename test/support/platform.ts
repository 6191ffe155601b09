/**
 * The contract suite runs twice: once on Express (the default) and once on Fastify, in the
 * `fastify` jest project, whose setup file sets `TOOLKIT_APP_PLATFORM=fastify` — which `App` and
 * `createTestingApp` honour like any `TOOLKIT_*` variable. These helpers let the few tests that
 * write a response themselves (as a user's exception filter does) stay platform-neutral.
 */
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The HTTP platforms toolkit runs on. */
export type TestPlatform = 'express' | 'fastify';

/** Every platform, for tests that compare them side by side. */
export const PLATFORMS: readonly TestPlatform[] = ['express', 'fastify'];

/** The platform this run targets: `TOOLKIT_APP_PLATFORM`, else Express. */
export function testPlatform(): TestPlatform {
  return process.env.TOOLKIT_APP_PLATFORM === 'fastify' ? 'fastify' : 'express';
}

/** Sends `body` as JSON with `status` on Express's response or Fastify's reply. */
export function sendJson(res: unknown, status: number, body: unknown): void {
  const reply = res as {
    code?: (status: number) => { send(body: unknown): unknown };
    status(status: number): { json(body: unknown): unknown };
  };
  if (typeof reply.code === 'function') reply.code(status).send(body);
  else reply.status(status).json(body);
}

/**
 * A new Nest HTTP adapter of this run's platform, for tests that create their own application
 * (`NestFactory.create(AppModule, testAdapter())`) as a user of `ToolkitModule` does.
 */
export function testAdapter(): ExpressAdapter | FastifyAdapter {
  return testPlatform() === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();
}
