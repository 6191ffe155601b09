import { ToolkitError } from '../../../providers/src/internal.js';

/** The abort reason of a producer cancelled through `ResumableStreams.cancel`. */
export class StreamCancelledError extends ToolkitError {
  constructor() {
    super('The stream was cancelled', { statusCode: 499 });
    this.name = 'StreamCancelledError';
  }
}

/** The abort reason of a producer that ran past its stream's time to live. */
export class StreamExpiredError extends ToolkitError {
  constructor(ttlSeconds: number) {
    super(`The stream ran longer than its ${ttlSeconds} s time to live`, { statusCode: 504 });
    this.name = 'StreamExpiredError';
  }
}
