import { ValidationError } from '../errors/validation.error.js';
import type { ParamProblem } from '../errors/validation.error.js';

/**
 * 422: a message (or user id, or `maxTokens`) given to conversation memory is not valid, e.g. a
 * role other than `user|assistant|system` or content that is not a string. `details` names each
 * offending argument, like any other 422 answer.
 *
 * @example
 * await memory.add('bot' as MemoryRole, 'hi'); // throws InvalidMessageError (422)
 */
export class InvalidMessageError extends ValidationError {
  constructor(details: ParamProblem[]) {
    super(details);
  }
}
