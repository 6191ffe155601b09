import { ToolkitError } from '../../../providers/src/internal.js';
import { formatBytes } from './format-bytes.js';

// The errors only the HTTP edge raises: malformed bodies, unknown paths, wrong methods, bodies
// over the limit. The errors the building blocks in `toolkit/providers` raise live there.

/**
 * 400: the body is not valid JSON, or not the JSON object the route expects.
 *
 * @example
 * throw new BadRequestError('Request body must be a JSON object');
 */
export class BadRequestError extends ToolkitError {
  constructor(message = 'Bad Request') {
    super(message, { statusCode: 400 });
  }
}

/**
 * 404 with the body `{ "error": message }`; the default message is `Not Found`.
 *
 * @example
 * if (!(await index.deleteDocument(id))) throw new NotFoundError(`No document ${id}`);
 */
export class NotFoundError extends ToolkitError {
  constructor(message = 'Not Found') {
    super(message, { statusCode: 404 });
  }
}

/**
 * 405 with an `Allow` header listing the methods the path does accept.
 *
 * @example
 * throw new MethodNotAllowedError(['GET', 'POST']); // Allow: GET, POST
 */
export class MethodNotAllowedError extends ToolkitError {
  constructor(allowed: readonly string[]) {
    super('Method Not Allowed', {
      statusCode: 405,
      headers: { Allow: allowed.join(', ') },
      body: { allowed },
    });
  }
}

/**
 * 413: the body is over the limit; the message states the limit in readable units.
 *
 * @example
 * throw new PayloadTooLargeError(1024 * 1024); // "Request body exceeds the limit of 1 MiB"
 */
export class PayloadTooLargeError extends ToolkitError {
  constructor(limitBytes: number, what = 'Request body') {
    super(`${what} exceeds the limit of ${formatBytes(limitBytes)}`, {
      statusCode: 413,
      body: { limit: limitBytes },
    });
  }
}
