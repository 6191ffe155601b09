import { EXIT_FAILURE, EXIT_USAGE } from '../cli.constants.js';

/** Options of a {@link CliError}. */
export interface CliErrorOptions {
  /** A next step printed under the message, e.g. the install command. */
  hint?: string;
  /** The process exit status. @default 1 */
  exitCode?: number;
  /** The underlying error, for `DEBUG=true` output. */
  cause?: unknown;
}

/**
 * A command failed for a reason the user can act on. The shell prints `Error: <message>` and the
 * hint, then exits with `exitCode` (1 unless a subclass says otherwise). A command's error, not an
 * HTTP one: it has an exit status and no HTTP status (`ToolkitError` is the HTTP family).
 *
 * @example
 * throw new CliError('jest was not found in this project', { hint: 'npm install --save-dev jest' });
 */
export class CliError extends Error {
  readonly exitCode: number;
  readonly hint?: string;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
    this.hint = options.hint;
  }
}

/**
 * The command line itself is wrong (a bad argument or a combination commander cannot check):
 * exit status 2, like commander's own usage errors.
 *
 * @example
 * throw new UsageError('choose either --serve or --build, not both');
 */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { hint, exitCode: EXIT_USAGE });
  }
}

/**
 * A program or package the command needs is not installed (jest, vitepress, a deploy client,
 * `@nestjs/platform-express`). The hint says how to install it.
 *
 * @example
 * throw new MissingToolError('vercel', 'npm install --global vercel');
 */
export class MissingToolError extends CliError {
  constructor(
    readonly tool: string,
    installHint: string,
    what = `${tool} was not found`,
  ) {
    super(what, { hint: `Install it with: ${installHint}` });
  }
}

/**
 * Ends the command with a status and no message, because the program the command ran (jest, a
 * server) has already said what went wrong.
 *
 * @example
 * if (code !== 0) throw new SilentExitError(code);
 */
export class SilentExitError extends CliError {
  constructor(exitCode: number) {
    super('', { exitCode });
  }
}
