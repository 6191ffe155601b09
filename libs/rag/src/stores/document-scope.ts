import { ValidationError } from '../../../providers/src/internal.js';

/**
 * Whose documents a call sees. Every document has an owner (the session or user that uploaded
 * it) or none: then it is **shared**, visible to everyone (the documents folder, and every
 * document stored before owners existed).
 *
 * - `{ owner: 'session:…' }`: that owner's documents plus the shared ones; changes (delete)
 *   only that owner's.
 * - `{}` or no scope at all: the shared documents only, and changes to them. A library user
 *   who never sets an owner has only shared documents, so every call works as before.
 * - `{ all: true }`: every document whatever its owner (administration, rebuilding an index).
 *
 * Stores apply the scope while they search, so the top k are the best of the visible chunks,
 * never filtered down afterwards, and another owner's chunks never reach a prompt.
 *
 * @example
 * await store.search(vector, 5, { owner: session }); // own + shared chunks
 * await store.listDocuments({ all: true });           // everything
 */
export interface DocumentScope {
  /** The caller: sees its documents and the shared ones. Non-empty, at most 512 characters, no NUL. */
  owner?: string;
  /** Every document, whatever its owner; `owner` is then ignored. @default false */
  all?: boolean;
}

/** The scope of administration: every document. */
export const ALL_DOCUMENTS: Readonly<DocumentScope> = Object.freeze({ all: true });

/** Longest owner id accepted. */
export const MAX_OWNER_LENGTH = 512;

/**
 * Checks an owner id (422 naming `owner` otherwise): a non-empty string of at most 512
 * characters without NUL or other control characters, which PostgreSQL and file names refuse or
 * mangle. `undefined` (shared) passes.
 */
export function assertOwner(owner: unknown): asserts owner is string | undefined {
  if (owner === undefined) return;
  const problem =
    typeof owner !== 'string'
      ? 'must be a string'
      : owner === ''
        ? 'must not be empty (leave it out for a shared document)'
        : owner.length > MAX_OWNER_LENGTH
          ? `must be at most ${MAX_OWNER_LENGTH} characters`
          : // eslint-disable-next-line no-control-regex -- control characters are what is refused
            /[\u0000-\u001f\u007f]/.test(owner)
            ? 'must not contain control characters'
            : undefined;
  if (problem) throw new ValidationError([{ param: 'owner', problem }]);
}

/** The scope checked (see {@link assertOwner}); no scope is `{}`, the shared documents. */
export function resolveScope(scope: DocumentScope | undefined): DocumentScope {
  if (scope === undefined || scope === null) return {};
  if (scope.all === true) return ALL_DOCUMENTS;
  assertOwner(scope.owner);
  return scope.owner === undefined ? {} : { owner: scope.owner };
}

/** True when a document of `owner` (undefined: shared) is visible in `scope`. */
export function canSee(scope: DocumentScope, owner: string | undefined): boolean {
  return scope.all === true || owner === undefined || owner === scope.owner;
}

/**
 * True when a document of `owner` may be changed (deleted, replaced) in `scope`: an owner's
 * documents by that owner, shared ones only without an owner (the app itself).
 */
export function canChange(scope: DocumentScope, owner: string | undefined): boolean {
  return scope.all === true || owner === scope.owner;
}
