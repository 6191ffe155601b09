import { ServiceUnavailableError } from '../errors/service-unavailable.error.js';
import type { MemoryBackend } from './memory-store.interface.js';

/**
 * 503: the conversation memory backend cannot be reached (or its store was closed). The message
 * names the backend and its host, never a password, e.g.
 * `Memory backend unavailable: redis at 127.0.0.1:6379 (ECONNREFUSED)`.
 */
export class MemoryUnavailableError extends ServiceUnavailableError {
  constructor(
    readonly backend: MemoryBackend,
    detail: string,
    cause?: unknown,
  ) {
    super(`Memory backend unavailable: ${backend} ${detail}`, cause);
  }
}
