import { ToolkitError } from '../../../providers/src/internal.js';

/**
 * Thrown at start-up when a controller declares `@Body({ schema })` (or `@Query`/`@Param`) on a
 * Nest without Standard Schema on its parameter decorators (Nest 11), which would take the
 * options for a pipe and fail every request with `pipe.transform is not a function`. It names
 * each parameter and what to change.
 */
export class ParamSchemaUnsupportedError extends ToolkitError {
  constructor(
    readonly parameters: readonly string[],
    nestVersion = 'of unknown version',
  ) {
    super(
      `${parameters.join(', ')}: { schema } on Nest's @Body, @Query or @Param needs Nest 12 ` +
        `(this application has @nestjs/core ${nestVersion}); upgrade @nestjs/common and ` +
        `@nestjs/core to ^12, or use @Arg(name, { schema }) or a DTO class`,
      { statusCode: 500 },
    );
    this.name = 'ParamSchemaUnsupportedError';
  }
}
