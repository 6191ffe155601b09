import {
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type ExecutionContext,
  type Provider,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CacheStore, ConfigError, TOOLKIT_CONFIG, ToolkitError, type WindowCount } from 'toolkit';
import { callerOf, type CallerRequest } from './api-keys.js';
import { IS_PUBLIC } from './public.decorator.js';

/** What the guard calls on the response: Express's and Fastify's both have it. */
interface HeaderSetter {
  header(name: string, value: string): unknown;
}

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
 * Rate-limits each API key (each client address when there is none) with a fixed window:
 * `X-RateLimit-Limit`/`-Remaining` on every answer, 429 + `Retry-After` past the limit. Counts
 * live in the cache backend: with `cache.backend: redis` every app instance shares them (one
 * atomic INCR + PEXPIRE per request), so N instances still allow the limit, not N times it. If
 * that backend is unreachable, each process counts on its own until it is back.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger('rate-limit');
  /** The fallback while the shared store is down (only keys that passed ApiKeyGuard get here). */
  private readonly local = new Map<string, { count: number; resetAt: number }>();
  private degraded = false;

  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT) private readonly rate: RateLimit,
    @Inject(CacheStore) private readonly counters: CacheStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<CallerRequest>();
    const { count, resetInMs } = await this.count(trackerOf(request));
    // `header()` is the same call on Express's response and on Fastify's reply.
    const response = http.getResponse<HeaderSetter>();
    response.header('X-RateLimit-Limit', String(this.rate.limit));
    response.header('X-RateLimit-Remaining', String(Math.max(0, this.rate.limit - count)));
    if (count <= this.rate.limit) return true;
    const retryAfter = Math.max(1, Math.ceil(resetInMs / 1000));
    throw new ToolkitError(`Rate limit exceeded: try again in ${retryAfter} s`, {
      statusCode: 429,
      headers: { 'Retry-After': String(retryAfter) },
    });
  }

  private async count(tracker: string): Promise<WindowCount> {
    const key = `rate-limit:${tracker}`;
    try {
      const counted = await this.counters.increment(key, this.rate.windowMs);
      if (this.degraded) this.logger.log('shared counters are back');
      this.degraded = false;
      return counted;
    } catch (error) {
      if (!this.degraded) {
        const reason = error instanceof Error ? error.message : 'unknown error';
        this.logger.warn(`shared counters unavailable (${reason}): counting in this process`);
      }
      this.degraded = true;
      return this.countLocally(key);
    }
  }

  private countLocally(key: string): WindowCount {
    const now = Date.now();
    let window = this.local.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.rate.windowMs };
      this.local.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }
}

/** Who is counted: a digest of the API key (never the key itself in Redis), else the address. */
function trackerOf(request: CallerRequest): string {
  return callerOf(request) ?? `ip:${request.ip ?? 'unknown'}`;
}
