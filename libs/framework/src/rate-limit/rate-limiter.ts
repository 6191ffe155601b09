import { Injectable } from '@nestjs/common';
import { RateCounter } from './rate-counter.js';
import { RateLimitExceededError } from './rate-limit-exceeded.error.js';

/** One count a request is checked against. */
export interface RateTracker {
  /** The counter's name, e.g. `model:session:<id>` (never a secret: it may reach Redis). */
  key: string;
  /** Requests allowed per window; 0 skips this tracker. */
  limit: number;
  /** Who this counts, for the 429 message: `this session`, `this address`. */
  who: string;
}

/** What {@link RateLimiter.check} sets headers on: Express's response and Fastify's reply. */
export interface HeaderSetter {
  header(name: string, value: string): unknown;
}

/**
 * Counts a request against several trackers at once (a session and an address, say) in a fixed
 * window, sets `X-RateLimit-Limit` / `X-RateLimit-Remaining` for the tightest of them and throws
 * {@link RateLimitExceededError} (429 + `Retry-After`) when any is over. The counters are
 * {@link RateCounter}'s, shared by every instance on a Redis cache backend.
 *
 * @example
 * await this.limiter.check(
 *   [{ key: `key:${digest}`, limit: 60, who: 'this API key' }],
 *   60_000,
 *   response,
 * );
 */
@Injectable()
export class RateLimiter {
  constructor(private readonly counter: RateCounter) {}

  /** @throws RateLimitExceededError when a tracker is over its limit. */
  async check(
    trackers: readonly RateTracker[],
    windowMs: number,
    response?: HeaderSetter,
  ): Promise<void> {
    const active = trackers.filter((tracker) => tracker.limit > 0);
    if (active.length === 0) return;
    const counts = await Promise.all(
      active.map(async (tracker) => ({
        tracker,
        ...(await this.counter.hit(tracker.key, windowMs)),
      })),
    );
    let tightest = counts[0];
    for (const entry of counts) {
      if (remaining(entry) < remaining(tightest)) tightest = entry;
    }
    response?.header('X-RateLimit-Limit', String(tightest.tracker.limit));
    response?.header('X-RateLimit-Remaining', String(Math.max(0, remaining(tightest))));
    const over = counts.find((entry) => entry.count > entry.tracker.limit);
    if (over === undefined) return;
    throw new RateLimitExceededError(
      over.tracker.who,
      over.tracker.limit,
      Number((windowMs / 1000).toFixed(3)),
      Math.max(1, Math.ceil(over.resetInMs / 1000)),
    );
  }
}

function remaining(entry: { tracker: RateTracker; count: number }): number {
  return entry.tracker.limit - entry.count;
}
