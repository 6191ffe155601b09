import { EXPRESS_PLATFORM } from './express.platform.js';
import { FASTIFY_PLATFORM } from './fastify.platform.js';
import type { HttpPlatform } from './http-platform.js';

/**
 * The platform of an HTTP adapter (`httpAdapter.getType()`: `'express'` or `'fastify'`), or of
 * a response Nest handed over (Fastify's reply has `hijack()`), when no adapter is at hand.
 *
 * @throws Error for a platform toolkit does not run on
 */
export function platformOf(source: { getType(): string } | string): HttpPlatform {
  const type = typeof source === 'string' ? source : source.getType();
  if (type === 'express') return EXPRESS_PLATFORM;
  if (type === 'fastify') return FASTIFY_PLATFORM;
  throw new Error(
    `toolkit serves its routes on @nestjs/platform-express or @nestjs/platform-fastify; this application uses "${type}"`,
  );
}

/** The platform a response object belongs to: Fastify's reply, else Express's response. */
export function platformOfResponse(res: object): HttpPlatform {
  return typeof (res as { hijack?: unknown }).hijack === 'function'
    ? FASTIFY_PLATFORM
    : EXPRESS_PLATFORM;
}

/** The platform a request object belongs to: Fastify's request wraps the Node one as `raw`. */
export function platformOfRequest(req: object): HttpPlatform {
  return 'raw' in req && typeof (req as { raw?: unknown }).raw === 'object'
    ? FASTIFY_PLATFORM
    : EXPRESS_PLATFORM;
}
