import type { Command } from 'commander';
import { CLI_DESCRIPTION, CLI_NAME } from '../cli.constants.js';

/**
 * Names and describes the root program. Applied to the fast program of the command line and to
 * nest-commander's program, so both print the same help.
 *
 * @example
 * describeProgram(new Command()).version('0.1.0');
 */
export function describeProgram(program: Command): Command {
  return program.name(CLI_NAME).description(CLI_DESCRIPTION);
}
