import { ToolkitError } from './toolkit.error.js';

/**
 * 503: a backend (memory store, provider) cannot be reached right now. Retryable; `cause` keeps
 * the underlying error for the logs and never reaches the client. With `publicMessage`, the
 * client reads that instead of the message, which may then name what only the logs should
 * show (a backend's address).
 *
 * @example
 * throw new ServiceUnavailableError('The search index is rebuilding', error);
 * throw new ServiceUnavailableError(`Redis at ${host} refused the connection`, error, 'The Redis cache is unavailable');
 */
export class ServiceUnavailableError extends ToolkitError {
  constructor(message: string, cause?: unknown, publicMessage?: string) {
    super(message, {
      statusCode: 503,
      isRetryable: true,
      cause,
      ...(publicMessage === undefined ? {} : { body: { error: publicMessage } }),
    });
  }
}
