import { Inject, Injectable, Logger } from '@nestjs/common';
import { CacheStore, type WindowCount } from '../../../providers/src/index.js';

/** Windows kept by the in-process fallback before the expired ones are swept. */
const SWEEP_AT = 10_000;

/**
 * Fixed-window counters for rate limits, kept in the cache backend: with `cache.backend: redis`
 * every app instance shares them (one atomic `INCR` + `PEXPIRE` per hit), so N instances still
 * allow the limit, not N times it. While that backend is unreachable, each process counts on its
 * own (one logged warning, and a line when it is back): a limit never fails a request.
 *
 * @example
 * constructor(private readonly counter: RateCounter) {}
 * const { count, resetInMs } = await this.counter.hit(`login-failures:${address}`, 60_000);
 * if (count > 10) throw new ToolkitError('Too many attempts', { statusCode: 429 });
 */
@Injectable()
export class RateCounter {
  private readonly logger = new Logger('toolkit:rate-limit');
  private readonly local = new Map<string, { count: number; resetAt: number }>();
  private degraded = false;

  constructor(@Inject(CacheStore) private readonly store: CacheStore) {}

  /** Counts one hit on `key` in a window of `windowMs` that starts with its first hit. */
  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const window = Math.max(1, Math.round(windowMs));
    try {
      const counted = await this.store.increment(`rate-limit:${key}`, window);
      if (this.degraded) this.logger.log('shared rate-limit counters are back');
      this.degraded = false;
      return counted;
    } catch (error) {
      if (!this.degraded) {
        const reason = error instanceof Error ? error.message : 'unknown error';
        this.logger.warn(
          `shared rate-limit counters unavailable (${reason}): counting in this process`,
        );
      }
      this.degraded = true;
      return this.hitLocally(key, window);
    }
  }

  private hitLocally(key: string, windowMs: number): WindowCount {
    const now = Date.now();
    if (this.local.size >= SWEEP_AT) {
      for (const [name, window] of this.local) if (window.resetAt <= now) this.local.delete(name);
    }
    let window = this.local.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.local.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }
}
