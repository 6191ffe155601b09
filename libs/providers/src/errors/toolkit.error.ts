const MARKER = Symbol.for('toolkit.error');

/** Options shared by every {@link ToolkitError}. */
export interface ToolkitErrorOptions {
  /** HTTP status the exception filter answers with. @default 500 */
  statusCode?: number;
  /** The underlying error, kept for logs; never sent to clients. */
  cause?: unknown;
  /** Whether repeating the same call may succeed (rate limits, outages). @default false */
  isRetryable?: boolean;
  /** Extra response headers (e.g. `Retry-After`, `Allow`). */
  headers?: Record<string, string>;
  /** Extra JSON fields merged into the `{ error }` body (e.g. `details`). */
  body?: Record<string, unknown>;
}

/**
 * Base class of every error toolkit raises on purpose. The message is safe to show a client;
 * the one exception filter turns it into `{ "error": message, ...body }` with `statusCode`.
 *
 * @example
 * throw new ToolkitError('Quota exceeded', { statusCode: 429, headers: { 'Retry-After': '5' } });
 */
export class ToolkitError extends Error {
  /** HTTP status the answer gets. */
  readonly statusCode: number;
  /** Whether repeating the same call may succeed (rate limits, outages). */
  readonly isRetryable: boolean;
  /** Extra response headers (e.g. `Retry-After`, `Allow`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Extra JSON fields merged into the `{ error }` body (e.g. `details`). */
  readonly body: Readonly<Record<string, unknown>>;

  constructor(message: string, options: ToolkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.statusCode = options.statusCode ?? 500;
    this.isRetryable = options.isRetryable ?? false;
    this.headers = options.headers ?? {};
    this.body = options.body ?? {};
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for any toolkit error, even one thrown by a second copy of the package. */
  static isInstance(error: unknown): error is ToolkitError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }

  /** The JSON body clients receive. */
  toJSON(): Record<string, unknown> {
    return { error: this.message, ...this.body };
  }
}
