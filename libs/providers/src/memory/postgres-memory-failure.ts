import { postgresFailure } from '../backends/postgres-failure.js';
import type { ToolkitError } from '../errors/toolkit.error.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';

/** A `pg` failure of the memory store: an outage is a `MemoryUnavailableError` (503), bad SQL a 500. */
export function postgresMemoryFailure(error: unknown, url: string): ToolkitError {
  return postgresFailure(error, url, {
    label: 'PostgreSQL memory backend',
    unavailable: (detail, cause) => new MemoryUnavailableError('postgres', detail, cause),
  });
}
