#!/usr/bin/env node
/**
 * The `toolkit` executable. `--version` is answered from package.json alone; every help text and
 * usage error comes from a plain commander program built from the command manifest, and `new`
 * checks its name and folder and says what it creates, all before Nest is imported. Only a valid
 * command line loads Nest, and then only the module of the invoked command; `start` runs without
 * nest-commander (see `start/run-start.ts`).
 */
import { EXIT_FAILURE, EXIT_USAGE } from './cli.constants.js';
import { enableCompileCache } from './runtime/compile-cache.js';
import { readPackageInfo } from './shell/package-info.js';
import { quietPipes } from './shell/quiet-pipes.js';
import type { StartOptions } from './start/start-request.js';

async function main(argv: readonly string[]): Promise<number> {
  const args = argv.slice(2);
  const { version } = readPackageInfo();
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const { parseCommandLine, renderRootHelp } = await import('./shell/command-line.js');
  if (args.length === 0) {
    // No command at all is a usage error (help on stderr, 2), as commander would have it.
    process.stderr.write(renderRootHelp(version));
    return EXIT_USAGE;
  }
  const outcome = parseCommandLine(argv, version);
  if (outcome.kind === 'exit') return outcome.exitCode;
  if (outcome.command === 'deploy') {
    const { describePlatforms, resolvePlatformId } =
      await import('./deploy/deploy-platform.interface.js');
    const platform = outcome.args[0] ?? '';
    if (!resolvePlatformId(platform)) {
      process.stderr.write(
        `error: unknown platform "${platform}"; choose one of ${describePlatforms()}\n` +
          '(add --help for additional information)\n',
      );
      return EXIT_USAGE;
    }
    if (outcome.options.json === true && outcome.options.check !== true) {
      process.stderr.write(
        'error: --json only goes with --check\n(add --help for additional information)\n',
      );
      return EXIT_USAGE;
    }
  }
  if (outcome.command === 'new') {
    const { preflightNewProject } = await import('./new/new-preflight.js');
    const stop = preflightNewProject({
      name: outcome.args[0] ?? '',
      template: String(outcome.options.template),
      directory: String(outcome.options.directory),
      cwd: process.cwd(),
    });
    if (stop !== undefined) return stop;
  }
  if (outcome.command === 'start') {
    // Production serving needs no CLI-only package (see run-start.ts).
    const { runStart } = await import('./start/run-start.js');
    return runStart(outcome.options as unknown as StartOptions);
  }
  const { loadCli } = await import('./shell/load-cli.js');
  const cli = await loadCli(outcome.command);
  return cli === undefined ? EXIT_FAILURE : cli.runCli(argv, version, outcome.command);
}

quietPipes();
enableCompileCache();
process.exitCode = await main(process.argv);
