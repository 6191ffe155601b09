import { loadPg } from '../support/backend-clients.js';
import { ToolkitError } from '../errors/toolkit.error.js';
import { backendAddress, errorReason } from './backend-address.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';

/** SQLSTATE classes that mean "cannot use the server now", not "bad SQL". */
const OUTAGE_CLASSES = new Set(['08', '28', '3D', '53', '57', '58']);

/**
 * Maps a `pg` failure: unreachable server, dropped connection, pool or query timeout, refused
 * login, shutdown → `MemoryUnavailableError` (503); an error the SQL engine raised for a statement
 * → a plain `ToolkitError` (500), since retrying will not help. Toolkit errors pass through.
 */
export function postgresFailure(error: unknown, url: string): ToolkitError {
  if (ToolkitError.isInstance(error)) return error;
  if (
    error instanceof loadPg().DatabaseError &&
    !OUTAGE_CLASSES.has(String(error.code).slice(0, 2))
  ) {
    return new ToolkitError(
      `PostgreSQL memory backend query failed (SQLSTATE ${error.code}): ${error.message}`,
      { cause: error },
    );
  }
  const reason = errorReason(error, url);
  return new MemoryUnavailableError('postgres', `at ${backendAddress(url)} (${reason})`, error);
}
