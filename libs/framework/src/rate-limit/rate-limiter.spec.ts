import { describe, expect, it } from '@jest/globals';
import type {
  CacheStore,
  WindowCount,
} from '../../../providers/src/cache/cache-store.interface.js';
import { MemoryCacheStore } from '../../../providers/src/cache/memory-cache.store.js';
import { RateCounter } from './rate-counter.js';
import { RateLimitExceededError } from './rate-limit-exceeded.error.js';
import { RateLimiter } from './rate-limiter.js';

/** A response that records the headers set on it. */
function headers() {
  const set: Record<string, string> = {};
  return { set, header: (name: string, value: string) => (set[name] = value) };
}

/** A cache backend whose counters fail (Redis down). */
const down = {
  increment: (): Promise<WindowCount> => Promise.reject(new Error('connection refused')),
} as unknown as CacheStore;

describe('RateLimiter', () => {
  it('lets a tracker through up to its limit, then answers 429 with Retry-After', async () => {
    const limiter = new RateLimiter(new RateCounter(new MemoryCacheStore()));
    const tracker = { key: 'session:a', limit: 2, who: 'this session' };
    const first = headers();
    await limiter.check([tracker], 60_000, first);
    expect(first.set).toEqual({ 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '1' });
    await limiter.check([tracker], 60_000);
    const error = await limiter.check([tracker], 60_000).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitExceededError);
    const exceeded = error as RateLimitExceededError;
    expect(exceeded.statusCode).toBe(429);
    expect(Number(exceeded.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(exceeded.headers['Retry-After'])).toBeLessThanOrEqual(60);
    expect(exceeded.message).toMatch(
      /^Rate limit exceeded for this session: at most 2 requests per 60 s; try again in \d+ s$/,
    );
  });

  it('refuses when any tracker is over, reports the tightest, and skips limits of 0', async () => {
    const limiter = new RateLimiter(new RateCounter(new MemoryCacheStore()));
    const address = { key: 'ip:1', limit: 3, who: 'this address' };
    const response = headers();
    for (const session of ['s1', 's2', 's3']) {
      await limiter.check(
        [
          address,
          { key: session, limit: 10, who: 'this session' },
          { key: 'x', limit: 0, who: 'x' },
        ],
        60_000,
        response,
      );
    }
    expect(response.set['X-RateLimit-Remaining']).toBe('0');
    await expect(
      limiter.check([address, { key: 's4', limit: 10, who: 'this session' }], 60_000),
    ).rejects.toThrow(/for this address/);
  });

  it('counts in the process while the shared backend is down', async () => {
    const limiter = new RateLimiter(new RateCounter(down));
    const tracker = { key: 'k', limit: 1, who: 'this API key' };
    await limiter.check([tracker], 60_000);
    await expect(limiter.check([tracker], 60_000)).rejects.toBeInstanceOf(RateLimitExceededError);
  });
});
