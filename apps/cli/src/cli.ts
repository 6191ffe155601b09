import 'reflect-metadata';
import { CommandFactory, CommandRunnerService } from 'nest-commander';
import { EXIT_OK } from './cli.constants.js';
import { CliModule } from './cli.module.js';
import { reportError } from './shell/error-reporter.js';
import { TerminalService } from './services/terminal.service.js';

/**
 * Runs `command` through the Nest-based CLI on `argv` (`process.argv` shape: node, script,
 * ...args), loading only that command's module, and resolves the exit status: 0 success,
 * 1 failure, 2 invalid usage.
 *
 * @example
 * process.exitCode = await runCli(process.argv, '0.1.0', 'dev');
 */
export async function runCli(
  argv: readonly string[],
  version: string,
  command: string,
): Promise<number> {
  let exitCode = EXIT_OK;
  let terminal: TerminalService | undefined;
  const app = await CommandFactory.createWithoutRunning(await CliModule.forCommands([command]), {
    logger: false,
    version,
    serviceErrorHandler: (error: unknown) => {
      exitCode = reportError(error, terminal ?? new TerminalService());
    },
  });
  try {
    terminal = app.get(TerminalService);
    await app.get(CommandRunnerService).run([...argv]);
  } finally {
    await app.close();
  }
  return exitCode;
}
