import {
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type Provider,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ConfigError, TOOLKIT_CONFIG, ToolkitError } from 'toolkit';
import { presentedKey } from './api-keys.js';
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
 * Rate-limits each API key (each client address when there is none) with a fixed window:
 * `X-RateLimit-Limit`/`-Remaining` on every answer, 429 + `Retry-After` past the limit. Counts
 * live in this process; with several app instances, each counts its own requests.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  // Only keys that passed ApiKeyGuard get here, so this map stays as small as API_KEYS.
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT) private readonly rate: RateLimit,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const tracker = presentedKey(request) ?? request.ip ?? 'anonymous';
    const now = Date.now();
    let window = this.windows.get(tracker);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.rate.windowMs };
      this.windows.set(tracker, window);
    }
    window.count += 1;
    const response = http.getResponse<Response>();
    response.setHeader('X-RateLimit-Limit', String(this.rate.limit));
    response.setHeader(
      'X-RateLimit-Remaining',
      String(Math.max(0, this.rate.limit - window.count)),
    );
    if (window.count <= this.rate.limit) return true;
    const retryAfter = Math.ceil((window.resetAt - now) / 1000);
    throw new ToolkitError(`Rate limit exceeded: try again in ${retryAfter} s`, {
      statusCode: 429,
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}
