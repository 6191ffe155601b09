import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  clientAddress,
  RateCounter,
  RateLimitExceededError,
  ToolkitError,
  type AddressedRequest,
} from 'toolkit';
import { isValidKey, parseKeys, presentedKey, type CallerRequest } from './api-keys.js';
import { IS_PUBLIC } from './public.decorator.js';

/** Failed key attempts one address may make per window before it is refused outright (429). */
export const MAX_KEY_FAILURES = 10;
/** The window of {@link MAX_KEY_FAILURES}. */
const FAILURE_WINDOW_MS = 60_000;

/**
 * Requires a valid API key on every route not marked `@Public()`; 401 + WWW-Authenticate
 * otherwise. Failed attempts are counted per client address (shared by every instance on a
 * Redis cache backend): past {@link MAX_KEY_FAILURES} a minute the address gets 429 +
 * `Retry-After`, whatever key it presents, until the minute ends. Each failure is logged with
 * the address, never the key.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly keys = parseKeys(process.env.API_KEYS);
  private readonly logger = new Logger('api');

  constructor(
    private readonly reflector: Reflector,
    private readonly failures: RateCounter,
  ) {
    if (this.keys.length === 0) {
      this.logger.warn(
        'API_KEYS is empty: every protected route answers 401 until you set it in .env',
      );
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<CallerRequest & AddressedRequest>();
    const key = presentedKey(request);
    if (key !== undefined && isValidKey(key, this.keys)) return true;
    const address = clientAddress(request);
    const { count, resetInMs } = await this.failures.hit(
      `api-key-failures:${address}`,
      FAILURE_WINDOW_MS,
    );
    const retryAfter = Math.max(1, Math.ceil(resetInMs / 1000));
    if (count <= MAX_KEY_FAILURES) {
      this.logger.warn(
        `${key === undefined ? 'No' : 'Invalid'} API key from ${address} (${count} of ${MAX_KEY_FAILURES} failures allowed a minute)`,
      );
    } else if (count === MAX_KEY_FAILURES + 1) {
      this.logger.warn(`Too many failed API keys from ${address}: refused for ${retryAfter} s`);
    }
    if (count > MAX_KEY_FAILURES) {
      throw new RateLimitExceededError(
        'failed API keys from this address',
        MAX_KEY_FAILURES,
        60,
        retryAfter,
      );
    }
    throw new ToolkitError(key === undefined ? 'An API key is required' : 'Invalid API key', {
      statusCode: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="api"' },
    });
  }
}
