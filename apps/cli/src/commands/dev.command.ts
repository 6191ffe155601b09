import type { Command as Commander } from 'commander';
import { Command, CommandRunner, Option } from 'nest-commander';
import { DEV_COMMAND, DEV_OPTIONS } from '../command-manifest.js';
import { parseAppSpec } from '../dev/app-spec.js';
import { portFromEnvironment } from '../dev/port-from-environment.js';
import { AppServerService } from '../dev/app-server.service.js';
import { SilentExitError } from '../errors/cli.errors.js';
import { useLongHelpOnly } from '../shell/command-line.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit dev` after parsing. */
export interface DevOptions {
  /** Undefined when `--port` is not given: `PORT` is served, else 8000. */
  port?: number;
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
    useLongHelpOnly(command);
    return super.setCommand(command);
  }

  async run(_args: string[], options: DevOptions): Promise<void> {
    const code = await this.server.serve({
      cwd: process.cwd(),
      app: parseAppSpec(options.app),
      host: options.host,
      port: options.port ?? portFromEnvironment(process.env.PORT),
      reload: options.reload ?? true,
      mode: 'dev',
    });
    if (code !== 0) throw new SilentExitError(code);
  }

  @Option(optionMetadata(DEV_OPTIONS.port))
  parsePort(value: string): number {
    return DEV_OPTIONS.port.parse(value);
  }

  @Option(optionMetadata(DEV_OPTIONS.host))
  parseHost(value: string): string {
    return DEV_OPTIONS.host.parse(value);
  }

  @Option(optionMetadata(DEV_OPTIONS.reload))
  parseReload(): boolean {
    return true;
  }

  @Option(optionMetadata(DEV_OPTIONS.noReload))
  parseNoReload(): boolean {
    return false;
  }

  @Option(optionMetadata(DEV_OPTIONS.app))
  parseApp(value: string): string {
    return DEV_OPTIONS.app.parse(value);
  }
}
