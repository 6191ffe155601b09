import { Command, CommanderError, Option } from 'commander';
import { EXIT_OK, EXIT_USAGE } from '../cli.constants.js';
import { COMMAND_SUMMARIES, type CommandSummary, type OptionSummary } from '../command-manifest.js';
import { describeProgram } from './root-help.js';

/** What the fast command line decided: exit now with a status, or run a command through Nest. */
export type CommandLineOutcome =
  | { readonly kind: 'exit'; readonly exitCode: number }
  | {
      readonly kind: 'run';
      readonly command: string;
      readonly args: readonly string[];
      readonly options: Readonly<Record<string, unknown>>;
    };

/** Commander's usage errors become exceptions, so the caller maps them to exit status 2. */
function throwCommanderExit(error: CommanderError): never {
  throw error;
}

/**
 * Applies the settings every toolkit command shares: commander errors are thrown instead of
 * exiting with commander's own status (it uses 1 for usage errors; toolkit promises 2), surplus
 * arguments are refused, and a usage error points at `--help`. Used on the fast program and on
 * nest-commander's program, so both behave the same.
 *
 * @example
 * configureCommand(new Command('dev'));
 */
export function configureCommand(command: Command): Command {
  return command
    .exitOverride(throwCommanderExit)
    .allowExcessArguments(false)
    .showHelpAfterError('(add --help for additional information)');
}

/**
 * For a command whose `-h` is `--host` (`dev`, `start`, as the seed has them): help is `--help`
 * only, and a usage error says what `-h` is here, so `toolkit dev -h` does not leave the user
 * wondering why help needs a host.
 */
export function useLongHelpOnly(command: Command): Command {
  return command
    .helpOption('--help', 'display help for command')
    .showHelpAfterError('(-h is --host here; add --help for the help of this command)');
}

/**
 * Adds a manifest option to a commander command exactly as nest-commander declares an `@Option()`
 * (default and preset, choices, parser), so both print the same help.
 */
function addOption(command: Command, summary: OptionSummary): void {
  const option = new Option(summary.flags, summary.description)
    .default(summary.defaultValue)
    .preset(summary.defaultValue);
  if (summary.choices) option.choices(summary.choices);
  // Only validation matters here: the values are parsed again by the Nest command's methods.
  const parse = summary.parse;
  if (parse) option.argParser((value: string) => parse(value));
  command.addOption(option);
}

/** Adds the positional arguments the way nest-commander's `argsDescription` does. */
function addArguments(command: Command, summary: CommandSummary): void {
  if (!summary.arguments) return;
  for (const argument of summary.arguments.split(' ')) {
    const key = Object.keys(summary.argsDescription ?? {}).find((name) => argument.includes(name));
    command.argument(argument, key ? (summary.argsDescription?.[key] ?? '') : '');
  }
}

/**
 * The whole command line as a plain commander program built from the command manifest: every
 * help text and every usage error, with no Nest and no services loaded. `onRun` is called with
 * the command the user invoked once its arguments and options are valid.
 *
 * @example
 * buildCommandLine('0.1.0', (name) => console.log(name)).parse(process.argv);
 */
export function buildCommandLine(
  version: string,
  onRun: (
    command: string,
    args: readonly string[],
    options: Readonly<Record<string, unknown>>,
  ) => void,
): Command {
  const program = configureCommand(describeProgram(new Command()).version(version));
  for (const summary of COMMAND_SUMMARIES) {
    const command = configureCommand(new Command(summary.name));
    if (summary.longHelpOnly) useLongHelpOnly(command);
    if (summary.allowUnknownOptions) command.allowUnknownOption();
    addArguments(command, summary);
    command.description(summary.description);
    for (const option of summary.optionSummaries) addOption(command, option);
    command.action(() => onRun(summary.name, command.args, command.opts()));
    program.addCommand(command);
  }
  return program;
}

/**
 * The root `--help` text, from the command manifest: no Nest, no services, a few milliseconds.
 *
 * @example
 * process.stdout.write(renderRootHelp('0.1.0'));
 */
export function renderRootHelp(version: string): string {
  return buildCommandLine(version, () => undefined).helpInformation();
}

/**
 * Parses `argv` (`process.argv` shape) with {@link buildCommandLine}. Help and version are printed
 * and end in status 0; usage errors are printed and end in status 2; a valid command line is
 * returned as the command to run.
 *
 * @example
 * const outcome = parseCommandLine(process.argv, '0.1.0');
 */
export function parseCommandLine(argv: readonly string[], version: string): CommandLineOutcome {
  let outcome: CommandLineOutcome | undefined;
  const program = buildCommandLine(version, (command, args, options) => {
    outcome = { kind: 'run', command, args, options };
  });
  try {
    program.parse([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      return { kind: 'exit', exitCode: error.exitCode === EXIT_OK ? EXIT_OK : EXIT_USAGE };
    }
    throw error;
  }
  return outcome ?? { kind: 'exit', exitCode: EXIT_USAGE };
}
