import type { Command as Commander } from 'commander';
import { Command, CommandRunner, Option } from 'nest-commander';
import { DEFAULT_DEV_PORT, DEFAULT_START_HOST } from '../cli.constants.js';
import { START_COMMAND, START_OPTIONS } from '../command-manifest.js';
import { parseAppSpec } from '../dev/app-spec.js';
import { AppServerService } from '../dev/app-server.service.js';
import { CliError, SilentExit } from '../errors/cli.errors.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit start` after parsing; host and port fall back to HOST and PORT. */
export interface StartOptions {
  port?: number;
  host?: string;
  app: string;
}

/**
 * `toolkit start [-p|--port $PORT] [-h|--host $HOST] [-a|--app app:app]`: serves the app for
 * production: no watcher, host `0.0.0.0` and port 8000 unless HOST/PORT say otherwise. This is
 * what the generated deployment files run.
 */
@Command(START_COMMAND)
export class StartCommand extends CommandRunner {
  constructor(private readonly server: AppServerService) {
    super();
  }

  override setCommand(command: Commander): this {
    command.helpOption('--help', 'display help for command');
    return super.setCommand(command);
  }

  async run(_args: string[], options: StartOptions): Promise<void> {
    const env = process.env;
    const code = await this.server.serve({
      cwd: process.cwd(),
      app: parseAppSpec(options.app),
      host: options.host ?? (env.HOST?.trim() || DEFAULT_START_HOST),
      port: options.port ?? portFromEnvironment(env.PORT),
      reload: false,
      mode: 'start',
      env: { NODE_ENV: 'production', ...env },
    });
    if (code !== 0) throw new SilentExit(code);
  }

  @Option(optionMetadata(START_OPTIONS.port))
  parsePort(value: string): number {
    return START_OPTIONS.port.parse(value);
  }

  @Option(optionMetadata(START_OPTIONS.host))
  parseHost(value: string): string {
    return START_OPTIONS.host.parse(value);
  }

  @Option(optionMetadata(START_OPTIONS.app))
  parseApp(value: string): string {
    return START_OPTIONS.app.parse(value);
  }
}

function portFromEnvironment(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_DEV_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 1 || port > 65535) {
    throw new CliError(`PORT must be an integer from 1 to 65535 (got "${raw}")`);
  }
  return port;
}
