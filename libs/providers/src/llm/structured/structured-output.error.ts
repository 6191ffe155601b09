import { ToolkitError } from '../../errors/toolkit.error.js';

/**
 * The model's reply never matched the requested schema (after the retries): answered as 502
 * `{ error }`, the message naming the violated paths.
 */
export class StructuredOutputError extends ToolkitError {
  constructor(
    /** What was wrong with the last reply, e.g. `/city: must be string`. */
    readonly problem: string,
    /** Model calls made. */
    readonly attempts: number,
  ) {
    super(
      `The model's reply did not match the schema after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${problem}`,
      { statusCode: 502 },
    );
  }
}
