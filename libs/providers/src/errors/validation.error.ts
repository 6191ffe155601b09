import { ToolkitError } from './toolkit.error.js';

/** One offending request parameter in a 422 answer. */
export interface ParamProblem {
  /** The parameter's name as the client sends it (e.g. `target_lang`). */
  param: string;
  /** What is wrong, in words (e.g. `is required`, `must be a string`). */
  problem: string;
}

/**
 * 422: parameters missing or of the wrong type; `details` names each one. Thrown by toolkit's
 * parameter checks, and yours to throw for checks of your own.
 *
 * @example
 * if (!STYLES.includes(style)) {
 *   throw new ValidationError([{ param: 'style', problem: `must be one of ${STYLES.join(', ')}` }]);
 * }
 */
export class ValidationError extends ToolkitError {
  /** Each offending parameter, in the order they were checked. */
  readonly details: readonly ParamProblem[];

  constructor(details: ParamProblem[]) {
    const names = details.map((d) => `${d.param} ${d.problem}`).join('; ');
    super(`Invalid parameters: ${names}`, { statusCode: 422, body: { details } });
    this.details = details;
  }
}
