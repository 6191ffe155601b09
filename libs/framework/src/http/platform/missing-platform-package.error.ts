import { ToolkitError } from '../../../../providers/src/internal.js';

/** `app.platform` names a platform whose Nest package is not installed. */
export class MissingPlatformPackageError extends ToolkitError {
  constructor(
    readonly platform: string,
    readonly packageName: string,
  ) {
    super(
      `app.platform "${platform}" needs ${packageName}, which is not installed: run npm install ${packageName}`,
      { statusCode: 500 },
    );
  }
}
