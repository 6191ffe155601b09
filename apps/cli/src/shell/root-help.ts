import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from '../command-manifest.js';
import { CLI_DESCRIPTION, CLI_NAME } from '../cli.constants.js';

/**
 * Names and describes the root program. Applied to the light program of {@link renderRootHelp}
 * and to nest-commander's program, so both print the same help.
 *
 * @example
 * describeProgram(new Command()).version('0.1.0');
 */
export function describeProgram(program: Command): Command {
  return program.name(CLI_NAME).description(CLI_DESCRIPTION);
}

/**
 * The root `--help` text, built from the command manifest with plain commander: no Nest, no
 * services, a few milliseconds. Equal to what the full CLI prints for `toolkit help`.
 *
 * @example
 * process.stdout.write(renderRootHelp('0.1.0'));
 */
export function renderRootHelp(version: string): string {
  const program = describeProgram(new Command()).version(version);
  for (const summary of COMMAND_SUMMARIES) {
    const command = new Command(summary.name).description(summary.description);
    if (summary.arguments) command.arguments(summary.arguments);
    // Only so the command list shows "[options]"; the real options live on the Nest command.
    command.addOption(new Option('--any').hideHelp());
    program.addCommand(command);
  }
  return program.helpInformation();
}
