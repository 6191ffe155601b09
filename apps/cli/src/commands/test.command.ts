import { Command, CommandRunner, Option } from 'nest-commander';
import { TEST_COMMAND, TEST_OPTIONS } from '../command-manifest.js';
import { optionMetadata } from './option-metadata.js';
import { SilentExitError } from '../errors/cli.errors.js';
import { JestRunnerService } from '../testing/jest-runner.service.js';

/** Options of `toolkit test` after parsing. */
export interface TestOptions {
  /** Undefined unless `--coverage` / `--no-coverage` was given; coverage is on by default. */
  coverage?: boolean;
  verbose?: boolean;
}

/**
 * `toolkit test [paths...] [--coverage|--no-coverage] [-v|--verbose] [jest options]`: runs the
 * project's jest on the given paths (all tests by default), passing options toolkit does not know
 * to jest, and exits with jest's own status.
 */
@Command(TEST_COMMAND)
export class TestCommand extends CommandRunner {
  constructor(private readonly jest: JestRunnerService) {
    super();
  }

  async run(args: string[], options: TestOptions): Promise<void> {
    const code = await this.jest.run({
      cwd: process.cwd(),
      passThrough: args,
      coverage: options.coverage ?? true,
      verbose: options.verbose ?? false,
    });
    if (code !== 0) throw new SilentExitError(code);
  }

  @Option(optionMetadata(TEST_OPTIONS.coverage))
  parseCoverage(): boolean {
    return true;
  }

  @Option(optionMetadata(TEST_OPTIONS.noCoverage))
  parseNoCoverage(): boolean {
    return false;
  }

  @Option(optionMetadata(TEST_OPTIONS.verbose))
  parseVerbose(): boolean {
    return true;
  }
}
