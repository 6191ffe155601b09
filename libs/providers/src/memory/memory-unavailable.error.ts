import { ServiceUnavailableError } from '../errors/service-unavailable.error.js';
import type { MemoryBackend } from './memory-store.interface.js';

/** How a 503 names each memory backend's kind to clients. */
const KIND: Readonly<Record<MemoryBackend, string>> = {
  memory: 'in-process',
  redis: 'Redis',
  postgres: 'PostgreSQL',
};

/**
 * 503: the conversation memory backend cannot be reached (or its store was closed). The client
 * reads which kind of backend, e.g. `The Redis memory backend is unavailable`; the message (for
 * the logs) also names its host, never a password, e.g.
 * `Memory backend unavailable: redis at 127.0.0.1:6379 (ECONNREFUSED)`.
 */
export class MemoryUnavailableError extends ServiceUnavailableError {
  constructor(
    readonly backend: MemoryBackend,
    detail: string,
    cause?: unknown,
  ) {
    super(
      `Memory backend unavailable: ${backend} ${detail}`,
      cause,
      `The ${KIND[backend]} memory backend is unavailable`,
    );
  }
}
