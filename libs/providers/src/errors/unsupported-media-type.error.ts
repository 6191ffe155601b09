import { ToolkitError } from './toolkit.error.js';

/**
 * 415: an upload or body whose type the route does not accept.
 *
 * @example
 * throw new UnsupportedMediaTypeError('Send the files as multipart/form-data');
 */
export class UnsupportedMediaTypeError extends ToolkitError {
  constructor(message: string) {
    super(message, { statusCode: 415 });
  }
}
