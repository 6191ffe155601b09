import type { DocumentScope } from './document-scope.js';

// SQL conditions on the `owner` column of a pgvector store's tables (NULL: shared), see
// `DocumentScope`. The owner is always a bound parameter, never inlined.

/**
 * The SQL condition on an owner column for the rows `scope` sees (its owner's and the shared
 * ones; shared only without an owner; all), its parameter appended to `params`.
 */
export function visibleWhere(scope: DocumentScope, column: string, params: unknown[]): string {
  if (scope.all === true) return 'TRUE';
  if (scope.owner === undefined) return `${column} IS NULL`;
  params.push(scope.owner);
  return `(${column} IS NULL OR ${column} = $${params.length})`;
}

/** The SQL condition for the rows `scope` may change (see `canChange`). */
export function changeableWhere(scope: DocumentScope, column: string, params: unknown[]): string {
  if (scope.all === true) return 'TRUE';
  if (scope.owner === undefined) return `${column} IS NULL`;
  params.push(scope.owner);
  return `${column} = $${params.length}`;
}
