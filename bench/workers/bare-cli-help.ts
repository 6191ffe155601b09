// The `--help` baseline: a bare commander program declaring the same `new` and `dev` commands
// and options as toolkit, written by hand (no manifest, no Nest), printing a command's help.
import { Command, Option } from 'commander';

const program = new Command().name('toolkit').version('0.1.0');
program
  .command('new')
  .argument('<name>', 'project name')
  .addOption(
    new Option('-t, --template <template>', 'project template to start from')
      .default('chatbot')
      .choices(['chatbot', 'rag', 'agent', 'api']),
  )
  .addOption(new Option('-d, --directory <dir>', 'folder to create the project in').default('.'))
  .action(() => undefined);
program
  .command('dev')
  .helpOption('--help', 'display help for command')
  .addOption(new Option('-p, --port <port>', 'port to serve on').default(8000))
  .addOption(new Option('-h, --host <host>', 'address to bind').default('127.0.0.1'))
  .option('--reload', 'restart when a .ts file changes (default)')
  .option('--no-reload', 'serve without watching for changes')
  .addOption(new Option('-a, --app <module:export>', 'the app to serve').default('app:app'))
  .action(() => undefined);
program.parse();
