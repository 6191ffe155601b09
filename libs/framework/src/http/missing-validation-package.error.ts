import { ToolkitError } from '../../../providers/src/internal.js';

/** A class-validator DTO met where class-validator or class-transformer is not installed. */
export class MissingValidationPackageError extends ToolkitError {
  constructor(readonly packageName: string) {
    super(
      `Validating a DTO class needs ${packageName}, which is not installed: run npm install class-validator class-transformer`,
      { statusCode: 500 },
    );
  }
}
