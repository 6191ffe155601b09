import { ToolkitError } from '../errors/toolkit.error.js';
import { loadPg } from './backend-clients.js';
import { backendAddress, errorReason } from './backend-address.js';

/** SQLSTATE classes that mean "cannot use the server now", not "bad SQL". */
const OUTAGE_CLASSES = new Set(['08', '28', '3D', '53', '57', '58']);

/** How one backend names its PostgreSQL failures. */
export interface PostgresFailureNaming {
  /** Start of a statement failure's message, e.g. `PostgreSQL memory backend`. */
  label: string;
  /** The backend's 503 for an outage, given `at host:port/db (reason)`. */
  unavailable(detail: string, cause: unknown): ToolkitError;
  /** Extra words for a statement failure (e.g. how to install a missing extension). */
  hint?(error: { code?: string; message: string }): string;
}

/**
 * Maps a `pg` failure: unreachable server, dropped connection, pool or query timeout, refused
 * login, shutdown → the backend's unavailable error (503); an error the SQL engine raised for a
 * statement → a plain `ToolkitError` (500), since retrying will not help. Toolkit errors pass
 * through. Messages name `host:port/db`, never the password.
 *
 * @example
 * throw postgresFailure(error, url, {
 *   label: 'PostgreSQL memory backend',
 *   unavailable: (detail, cause) => new MemoryUnavailableError('postgres', detail, cause),
 * });
 */
export function postgresFailure(
  error: unknown,
  url: string,
  naming: PostgresFailureNaming,
): ToolkitError {
  if (ToolkitError.isInstance(error)) return error;
  if (
    error instanceof loadPg().DatabaseError &&
    !OUTAGE_CLASSES.has(String(error.code).slice(0, 2))
  ) {
    const hint = naming.hint?.(error) ?? '';
    return new ToolkitError(
      `${naming.label} query failed (SQLSTATE ${error.code}): ${error.message}${hint}`,
      { cause: error },
    );
  }
  return naming.unavailable(`at ${backendAddress(url)} (${errorReason(error, url)})`, error);
}
