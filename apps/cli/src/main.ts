#!/usr/bin/env node
/**
 * The `toolkit` executable. `--version` and the bare root help are answered here from
 * package.json and the command manifest, so they never load Nest, nest-commander, provider SDKs
 * or templates; everything else imports the Nest-based CLI on demand.
 */
import { EXIT_USAGE } from './cli.constants.js';
import { readPackageInfo } from './shell/package-info.js';

const args = process.argv.slice(2);
const { version } = readPackageInfo();

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version}\n`);
} else if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  const { renderRootHelp } = await import('./shell/root-help.js');
  const help = renderRootHelp(version);
  // No command at all is a usage error (help on stderr, 2), as commander would have it.
  if (args.length === 0) {
    process.stderr.write(help);
    process.exitCode = EXIT_USAGE;
  } else {
    process.stdout.write(help);
  }
} else {
  const { runCli } = await import('./cli.js');
  process.exitCode = await runCli(process.argv, version);
}
