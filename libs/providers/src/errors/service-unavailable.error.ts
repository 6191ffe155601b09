import { ToolkitError } from './toolkit.error.js';

/**
 * 503: a backend (memory store, provider) cannot be reached right now. Retryable; `cause` keeps
 * the underlying error for the logs and never reaches the client.
 *
 * @example
 * throw new ServiceUnavailableError('The search index is rebuilding', error);
 */
export class ServiceUnavailableError extends ToolkitError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 503, isRetryable: true, cause });
  }
}
