import {
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type Provider,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  clientAddress,
  ConfigError,
  RateLimiter,
  TOOLKIT_CONFIG,
  type AddressedRequest,
  type HeaderSetter,
} from 'toolkit';
import { callerOf, isValidKey, parseKeys, presentedKey, type CallerRequest } from './api-keys.js';
import { IS_PUBLIC } from './public.decorator.js';

/** How many requests each API key may make per window. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Injection token of the {@link RateLimit}. */
export const RATE_LIMIT = Symbol('RATE_LIMIT');

/**
 * RATE_LIMIT_PER_MINUTE (default 60) requests a minute per key. A factory that depends on the
 * toolkit configuration runs after `.env` has been loaded, so the value may come from there.
 */
export const rateLimitProvider: Provider = {
  provide: RATE_LIMIT,
  inject: [TOOLKIT_CONFIG],
  useFactory: (): RateLimit => {
    const limit = Number(process.env.RATE_LIMIT_PER_MINUTE ?? 60);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ConfigError('RATE_LIMIT_PER_MINUTE', 'must be a positive integer', '.env');
    }
    return { limit, windowMs: 60_000 };
  },
};

/**
 * Rate-limits each valid API key, and each client address for requests without one (a missing
 * or wrong key), with a fixed window: `X-RateLimit-Limit`/`-Remaining` on every answer, 429 +
 * `Retry-After` past the limit. It runs before `ApiKeyGuard`, so requests that will be refused
 * are counted too. The counts are toolkit's `RateLimiter`'s, kept in the cache backend: with
 * `cache.backend: redis` every app instance shares them, so N instances still allow the limit,
 * not N times it (each process counts on its own while that backend is unreachable).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly keys = parseKeys(process.env.API_KEYS);

  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT) private readonly rate: RateLimit,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<CallerRequest & AddressedRequest>();
    await this.limiter.check(
      [this.trackerOf(request)],
      this.rate.windowMs,
      http.getResponse<HeaderSetter>(),
    );
    return true;
  }

  /** A valid key counts under its digest (never the key itself); anything else, its address. */
  private trackerOf(request: CallerRequest & AddressedRequest) {
    const key = presentedKey(request);
    const caller = key !== undefined && isValidKey(key, this.keys) ? callerOf(request) : undefined;
    return caller !== undefined
      ? { key: `api:${caller}`, limit: this.rate.limit, who: 'this API key' }
      : { key: `api:ip:${clientAddress(request)}`, limit: this.rate.limit, who: 'this address' };
  }
}
