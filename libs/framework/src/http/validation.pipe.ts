import { ValidationPipe, type ValidationError as ClassValidationError } from '@nestjs/common';
import { ValidationError, type ParamProblem } from '../../../providers/src/errors/index.js';

/**
 * Nest's `ValidationPipe` set up the toolkit way: DTO classes are validated with
 * class-validator, and failures are a 422 whose `details` name each offending parameter, the same
 * shape `@Arg` and `app.route` give.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    exceptionFactory: (errors: ClassValidationError[]) => new ValidationError(flatten(errors, '')),
  });
}

function flatten(errors: ClassValidationError[], prefix: string): ParamProblem[] {
  return errors.flatMap((error) => {
    const param = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ param, problem }));
    return [...own, ...flatten(error.children ?? [], param)];
  });
}
