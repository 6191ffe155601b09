import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { RATE_LIMIT_METADATA } from '../toolkit.constants.js';
import { RateLimitGuard } from './rate-limit.guard.js';

/** Options of {@link RateLimit}; each one falls back to toolkit.yaml's `limits:` section. */
export interface RateLimitOptions {
  /**
   * Requests each caller (its `@Session()`: the signed-in user, else the session cookie) may
   * make per window. 0: no per-caller limit.
   * @default config `limits.session_requests` (20)
   */
  session?: number;
  /**
   * Requests each client address may make per window, whatever its sessions. 0: none.
   * @default config `limits.address_requests` (60)
   */
  address?: number;
  /** The window, in seconds. @default config `limits.window` (60) */
  window?: number;
  /**
   * Routes with the same bucket share their counts: every model route of an app spends the same
   * allowance by default.
   * @default 'default'
   */
  bucket?: string;
}

/**
 * Rate-limits a route, or every route of a controller, per caller and per client address, in
 * fixed windows kept in the cache backend (shared by every instance with `cache.backend: redis`).
 * Past a limit the route answers 429 with `Retry-After` and a message naming the limit; every
 * answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`. `@RateLimit(false)` on a method
 * exempts it from its controller's limit. Turn the limits off in toolkit.yaml with
 * `limits.session_requests: 0` and `limits.address_requests: 0`.
 *
 * @example
 * @Route('/chat', { methods: ['POST'] })
 * @RateLimit()                        // limits.session_requests / address_requests per window
 * async chat(@Session() session: string, @Arg('message') message: string) { ... }
 *
 * @RateLimit({ session: 5, window: 3600, bucket: 'images' })   // 5 an hour, counted apart
 */
export function RateLimit(
  options: RateLimitOptions | false = {},
): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_METADATA, options), UseGuards(RateLimitGuard));
}
