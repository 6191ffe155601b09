import {
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError as ClassValidationError,
} from '@nestjs/common';
import {
  ValidationError,
  type ParamProblem,
} from '../../../providers/src/errors/validation.error.js';
import { validateWithSchema } from '../routing/standard-schema.js';
import { lazyTransformerPackage, lazyValidatorPackage } from './class-validation-packages.js';

/**
 * Nest's `ValidationPipe` set up the toolkit way: DTO classes are validated with
 * class-validator, and a Standard Schema given to Nest's own decorators (`@Body({ schema })`,
 * `@Query('page', { schema })` with zod, valibot, arktype, ...) validates and converts the value.
 * Failures are a 422 whose `details` name each offending parameter, the shape `@Arg` and
 * `app.route` give. `attachValidation` puts it on the parameters that need it (`validate: true`).
 */
export class ToolkitValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      // Required on the first DTO, not here: class-validator is an optional peer of toolkit.
      validatorPackage: lazyValidatorPackage,
      transformerPackage: lazyTransformerPackage,
      exceptionFactory: (errors: ClassValidationError[]) =>
        new ValidationError(flatten(errors, '')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (!metadata.schema) return super.transform(value, metadata) as Promise<unknown>;
    const outcome = await validateWithSchema(metadata.data ?? '', metadata.schema, value);
    if ('problems' in outcome) {
      throw new ValidationError(
        outcome.problems.map((p) => ({ ...p, param: p.param || metadata.type })),
      );
    }
    return outcome.value;
  }
}

function flatten(errors: ClassValidationError[], prefix: string): ParamProblem[] {
  return errors.flatMap((error) => {
    const param = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ param, problem }));
    return [...own, ...flatten(error.children ?? [], param)];
  });
}
