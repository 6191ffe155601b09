import { ServiceUnavailableError } from '../../providers/src/errors/service-unavailable.error.js';
import { ToolkitError } from '../../providers/src/errors/toolkit.error.js';
import { UnsupportedMediaTypeError } from '../../providers/src/errors/unsupported-media-type.error.js';

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
 * 502: an embedding provider answered with something unusable (wrong number of vectors, wrong
 * dimensions, non-finite numbers). Raised instead of storing vectors that would corrupt search.
 */
export class EmbeddingError extends ToolkitError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 502, cause });
  }
}

/**
 * 503: a vector store cannot be reached (PostgreSQL down) or was closed. The message names the
 * store, never a password.
 */
export class VectorStoreUnavailableError extends ServiceUnavailableError {
  constructor(store: string, detail: string, cause?: unknown) {
    super(`Vector store unavailable: ${store} ${detail}`, cause);
  }
}
