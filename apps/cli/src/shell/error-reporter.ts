import { ToolkitError } from '../../../../libs/providers/src/internal.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../cli.constants.js';
import { CliError, SilentExitError, UsageError } from '../errors/cli.errors.js';
import type { TerminalService } from '../services/terminal.service.js';

/** The error commander throws (through `exitOverride`) after printing its own message. */
interface CommanderExit {
  code: string;
  exitCode: number;
}

function isCommanderExit(error: unknown): error is CommanderExit {
  const candidate = error as Partial<CommanderExit> | null;
  return typeof candidate?.code === 'string' && candidate.code.startsWith('commander.');
}

/**
 * Turns whatever ended a command into the exit status, printing what the user needs: commander's
 * usage errors (already printed) → 2, help/version → 0, {@link CliError}s → their status with
 * message and hint, anything else → 1 (with the stack when `DEBUG=true`).
 *
 * @example
 * process.exitCode = reportError(error, terminal);
 */
export function reportError(error: unknown, terminal: TerminalService): number {
  if (isCommanderExit(error)) return error.exitCode === EXIT_OK ? EXIT_OK : EXIT_USAGE;
  if (error instanceof SilentExitError) return error.exitCode;
  if (error instanceof UsageError) {
    terminal.usageError(error.message, error.hint ?? '(add --help for additional information)');
    return EXIT_USAGE;
  }
  if (error instanceof CliError) {
    terminal.error(error.message, error.hint);
    return error.exitCode;
  }
  if (ToolkitError.isInstance(error)) {
    terminal.error(error.message);
    return EXIT_FAILURE;
  }
  const debug = /^(1|true|yes)$/i.test(process.env.DEBUG ?? '');
  const detail =
    error instanceof Error
      ? debug
        ? (error.stack ?? error.message)
        : error.message
      : String(error);
  terminal.error(detail, debug ? undefined : 'Set DEBUG=true to see the stack trace.');
  return EXIT_FAILURE;
}
