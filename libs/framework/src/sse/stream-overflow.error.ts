import { ToolkitError } from '../../../providers/src/internal.js';

/** An Observable produced faster than its client read, past `maxPendingBytes`. */
export class StreamOverflowError extends ToolkitError {
  constructor(limitBytes: number) {
    super(`The client is not reading its events: more than ${limitBytes} bytes waited for it`, {
      statusCode: 503,
    });
  }
}
