// The CLI start-up baseline: a bare commander program that prints a version.
import { program } from 'commander';

program.name('bare').version('0.1.0');
program.command('hello').action(() => {
  process.stdout.write('hello\n');
});
program.parse();
