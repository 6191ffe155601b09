import { ServiceUnavailableError } from '../errors/service-unavailable.error.js';

/**
 * 503: the cache backend cannot be reached. The cache interceptor catches it, logs it and runs
 * the route uncached. A client that sees it reads `The Redis cache backend is unavailable`; the
 * message (for the logs) names the host, never a password, e.g.
 * `Cache backend unavailable: redis at 127.0.0.1:6379 (ECONNREFUSED)`.
 */
export class CacheUnavailableError extends ServiceUnavailableError {
  constructor(detail: string, cause?: unknown) {
    super(
      `Cache backend unavailable: redis ${detail}`,
      cause,
      'The Redis cache backend is unavailable',
    );
  }
}
