import {
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError as ClassValidationError,
} from '@nestjs/common';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type ParamProblem } from '../../../providers/src/index.js';
import { ValidationError } from '../../../providers/src/internal.js';
import { validateWithSchema } from '../routing/standard-schema.js';
import { lazyTransformerPackage, lazyValidatorPackage } from './class-validation-packages.js';
import { needsValidation } from './validated-params.js';

/**
 * Toolkit's global pipe under `validate: true`: a DTO class is validated with class-validator
 * (through Nest's `ValidationPipe`, with `transform`), and a Standard Schema given to Nest's own
 * decorators (`@Body({ schema })`, `@Query('page', { schema })` with zod, valibot, arktype, ...)
 * validates and converts the value; `number`/`boolean` query and path values are converted from
 * text. Failures are a 422 whose `details` name each offending parameter, the shape `@Arg` and
 * `app.route` give. Any other parameter (see `needsValidation`) is returned at once, as it came,
 * without a promise: a global pipe runs on every parameter of every route.
 */
export class ToolkitValidationPipe implements PipeTransform<unknown, unknown> {
  private readonly classes = new ValidationPipe({
    transform: true,
    // Required on the first DTO, not here: class-validator is an optional peer of toolkit.
    validatorPackage: lazyValidatorPackage,
    transformerPackage: lazyTransformerPackage,
    exceptionFactory: (errors: ClassValidationError[]) => new ValidationError(flatten(errors, '')),
  });

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (!needsValidation(metadata)) return value;
    const { schema } = metadata;
    if (schema) return checkSchema(value, metadata, schema);
    return this.classes.transform(value, metadata) as Promise<unknown>;
  }
}

/** `value` checked and converted by `schema`, or a 422 naming the parameter (or its fields). */
async function checkSchema(
  value: unknown,
  metadata: ArgumentMetadata,
  schema: StandardSchemaV1,
): Promise<unknown> {
  const outcome = await validateWithSchema(metadata.data ?? '', schema, value);
  if ('problems' in outcome) {
    throw new ValidationError(
      outcome.problems.map((p) => ({ ...p, param: p.param || metadata.type })),
    );
  }
  return outcome.value;
}

function flatten(errors: ClassValidationError[], prefix: string): ParamProblem[] {
  return errors.flatMap((error) => {
    const param = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ param, problem }));
    return [...own, ...flatten(error.children ?? [], param)];
  });
}
