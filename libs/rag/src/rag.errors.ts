// The parser worker threads load this file: through the framework's door they would load the
// config loader and Nest into every worker, for a one-function module with no imports.
// eslint-disable-next-line no-restricted-imports -- the exception eslint.config.js names
import { formatBytes } from '../../framework/src/http/format-bytes.js';
import { ServiceUnavailableError, UnsupportedMediaTypeError } from '../../providers/src/index.js';
import { ToolkitError } from '../../providers/src/internal.js';

/**
 * 415: a file toolkit's RAG loaders do not read, or whose content is not what its name claims
 * (a `.pdf` that is really a PNG, a `.docx` that is an ordinary ZIP, binary bytes in a `.txt`).
 * The message names what was found, e.g.
 * `"scan.pdf" claims to be PDF but its content is a PNG image`.
 */
export class UnsupportedDocumentError extends UnsupportedMediaTypeError {
  constructor(message: string) {
    super(message);
  }
}

/** Why a supported file could not be turned into text. */
export type UnreadableReason = 'empty' | 'corrupt' | 'encrypted' | 'no-text';

/**
 * 422: the file is of a supported type but cannot be read: it is empty, corrupt, password
 * protected, or holds no extractable text (e.g. a scanned PDF without a text layer).
 * `reason` says which, for callers that branch on it.
 */
export class UnreadableDocumentError extends ToolkitError {
  constructor(
    readonly reason: UnreadableReason,
    message: string,
    cause?: unknown,
  ) {
    super(message, { statusCode: 422, cause, body: { reason } });
  }
}

/**
 * 413: a document that would decompress past the inflated-size limit: a DOCX whose text part,
 * or a PDF whose compressed streams, inflate to more than `limit` bytes (a "zip bomb" or simply
 * too big to read). Raised before the bytes are inflated, or as soon as the limit is passed.
 * The body carries `code: 'document_too_large'` and the `limit` in bytes.
 *
 * @example
 * throw new DocumentTooLargeError('big.docx', 'its text part', 64 * 1024 * 1024, 'maxInflatedBytes');
 * // '"big.docx" is too large to read: its text part inflates past the limit of 64 MiB
 * //  (raise maxInflatedBytes to accept it)'
 */
export class DocumentTooLargeError extends ToolkitError {
  constructor(
    name: string,
    what: string,
    /** The limit that was passed, in bytes. */
    readonly limit: number,
    setting: string,
  ) {
    super(
      `"${name}" is too large to read: ${what} inflates past the limit of ` +
        `${formatBytes(limit)} (raise ${setting} to accept it)`,
      { statusCode: 413, body: { code: 'document_too_large', limit } },
    );
  }
}

/**
 * 502: an embedding provider answered with something unusable (wrong number of vectors, wrong
 * dimensions, non-finite numbers). Raised instead of storing vectors that would corrupt search.
 */
export class EmbeddingError extends ToolkitError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 502, cause });
  }
}

/**
 * 503: a vector store cannot be reached (PostgreSQL down) or was closed. The client reads which
 * store (`The pgvector store is unavailable`); the message, for the logs, also names where it
 * is (host or folder), never a password.
 */
export class VectorStoreUnavailableError extends ServiceUnavailableError {
  constructor(store: string, detail: string, cause?: unknown) {
    super(
      `Vector store unavailable: ${store} ${detail}`,
      cause,
      `The ${store} store is unavailable`,
    );
  }
}
