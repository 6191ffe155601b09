import type { Command as Commander } from 'commander';
import { Command, CommandRunner, Option } from 'nest-commander';
import { DEFAULT_APP_SPEC, DEFAULT_DEV_HOST, DEFAULT_DEV_PORT } from '../cli.constants.js';
import { DEV_COMMAND } from '../command-manifest.js';
import { parseAppSpec } from '../dev/app-spec.js';
import { AppServerService } from '../dev/app-server.service.js';
import { SilentExit } from '../errors/cli.errors.js';
import { parsePort, parseWord } from './option-parsers.js';

/** Options of `toolkit dev` after parsing. */
export interface DevOptions {
  port: number;
  host: string;
  /** Undefined unless `--reload` / `--no-reload` was given; reload is on by default. */
  reload?: boolean;
  app: string;
}

/**
 * `toolkit dev [-p|--port 8000] [-h|--host 127.0.0.1] [--reload|--no-reload] [-a|--app app:app]`:
 * serves the project's app with auto-reload. `-h` is the host here, so help is `--help` only.
 */
@Command(DEV_COMMAND)
export class DevCommand extends CommandRunner {
  constructor(private readonly server: AppServerService) {
    super();
  }

  override setCommand(command: Commander): this {
    command.helpOption('--help', 'display help for command');
    return super.setCommand(command);
  }

  async run(_args: string[], options: DevOptions): Promise<void> {
    const code = await this.server.serve({
      cwd: process.cwd(),
      app: parseAppSpec(options.app),
      host: options.host,
      port: options.port,
      reload: options.reload ?? true,
      mode: 'dev',
    });
    if (code !== 0) throw new SilentExit(code);
  }

  @Option({
    flags: '-p, --port <port>',
    description: 'port to serve on',
    defaultValue: DEFAULT_DEV_PORT,
  })
  parsePort(value: string): number {
    return parsePort(value);
  }

  @Option({
    flags: '-h, --host <host>',
    description: 'address to bind; 0.0.0.0 allows external connections',
    defaultValue: DEFAULT_DEV_HOST,
  })
  parseHost(value: string): string {
    return parseWord(value);
  }

  @Option({ flags: '--reload', description: 'restart when a .ts file changes (default)' })
  parseReload(): boolean {
    return true;
  }

  @Option({ flags: '--no-reload', description: 'serve without watching for changes' })
  parseNoReload(): boolean {
    return false;
  }

  @Option({
    flags: '-a, --app <module:export>',
    description:
      'the app to serve: <module>:<export>, e.g. app:app for app.ts (or app.js) exporting app',
    defaultValue: DEFAULT_APP_SPEC,
  })
  parseApp(value: string): string {
    parseAppSpec(value);
    return value;
  }
}
