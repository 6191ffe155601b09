import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingToolError } from '../errors/cli.errors.js';
import { PackageLocatorService } from '../services/package-locator.service.js';
import { ProcessService } from '../services/process.service.js';
import { TerminalService } from '../services/terminal.service.js';

/** What {@link JestRunnerService.run} runs. */
export interface JestRunRequest {
  /** Project folder; jest is resolved from here, never from toolkit's own dependencies. */
  cwd: string;
  /** Add `--coverage --coverageReporters=text` (per-file table with uncovered lines). */
  coverage: boolean;
  /** Add `--verbose`. */
  verbose: boolean;
  /** Test paths and jest options given on the command line, passed to jest as they are. */
  passThrough?: readonly string[];
}

/**
 * The jest arguments `toolkit test` passes, e.g. `['tests/chat.spec.ts', '--coverage',
 * '--coverageReporters=text']`. What the command line gave comes first: `--coverageReporters`
 * takes a list, so a test path written after it would be read as one more reporter (and every
 * test would run).
 */
export function jestArguments(
  request: Pick<JestRunRequest, 'coverage' | 'verbose' | 'passThrough'>,
): string[] {
  return [
    ...(request.passThrough ?? []),
    ...(request.coverage ? ['--coverage', '--coverageReporters=text'] : []),
    ...(request.verbose ? ['--verbose'] : []),
  ];
}

/**
 * Runs the project's jest and resolves its exit status. In an ES-module project (`"type":
 * "module"`) Node gets `--experimental-vm-modules`, which jest needs to load ESM tests.
 *
 * @example
 * const code = await jest.run({ cwd: process.cwd(), coverage: true, verbose: false });
 */
@Injectable()
export class JestRunnerService {
  constructor(
    private readonly packages: PackageLocatorService,
    private readonly processes: ProcessService,
    private readonly terminal: TerminalService,
  ) {}

  async run(request: JestRunRequest): Promise<number> {
    const jest = this.packages.find('jest', request.cwd);
    const bin = jest?.bins.jest;
    if (!bin) {
      throw new MissingToolError(
        'jest',
        'npm install --save-dev jest',
        'The test runner jest was not found in this project',
      );
    }
    const args = jestArguments(request);
    const nodeFlags = isEsmProject(request.cwd)
      ? ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning']
      : [];
    this.terminal.info(`Running: jest ${args.join(' ')}`.trimEnd());
    const result = await this.processes.runAttached(
      process.execPath,
      [...nodeFlags, bin, ...args],
      {
        cwd: request.cwd,
      },
    );
    return result.code ?? 1;
  }
}

function isEsmProject(cwd: string): boolean {
  try {
    const json = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { type?: string };
    return json.type === 'module';
  } catch {
    return false;
  }
}
