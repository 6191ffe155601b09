import { Injectable } from '@nestjs/common';
import { basename } from 'node:path';
import type { DoctorCheck } from '../doctor/doctor-check.js';
import { CliError, MissingToolError } from '../errors/cli.errors.js';
import { ProcessService, type RunResult } from '../services/process.service.js';
import { TerminalService } from '../services/terminal.service.js';
import type { PlatformId } from './deploy-platform.interface.js';
import { PLATFORM_CLIENTS, type ClientSpec } from './platform-clients.js';

export type { ClientSpec } from './platform-clients.js';

/** How long `<client> --version` may take before the version is reported as unknown. */
const VERSION_TIMEOUT_MS = 5000;

/**
 * Finds and runs deploy clients (`flyctl`, `heroku`, `vercel`). A missing client and a client
 * that fails both end the command with status 1 and a next step. {@link check} reports the same
 * lookup as one `toolkit doctor` line, for `doctor --platform` and `deploy --check`.
 *
 * @example
 * const heroku = clients.locate({ names: ['heroku'], install: 'npm install --global heroku' });
 */
@Injectable()
export class PlatformClientService {
  constructor(
    private readonly processes: ProcessService,
    private readonly terminal: TerminalService,
  ) {}

  /** The client's path on PATH (the first of its names found), or `undefined`. */
  find(client: ClientSpec): string | undefined {
    for (const name of client.names) {
      const path = this.processes.which(name);
      if (path) return path;
    }
    return undefined;
  }

  /** The client's path on PATH; throws a {@link MissingToolError} with the install hint. */
  locate(client: ClientSpec): string {
    const path = this.find(client);
    if (path) return path;
    const [first] = client.names;
    throw new MissingToolError(
      first,
      client.install,
      `The ${first} command-line client was not found on PATH`,
    );
  }

  /**
   * Whether the client `toolkit deploy <platform>` runs is on PATH, with its `--version` (run
   * locally, no network; whether it is logged in is not checked, since each client asks its
   * server for that). A missing client fails with the install command as the fix.
   *
   * @example
   * const line = await clients.check('vmhost'); // { name: 'client', status: 'ok', detail: 'flyctl v0.3.1 at /usr/local/bin/flyctl ...' }
   */
  async check(platform: PlatformId): Promise<DoctorCheck> {
    const client = PLATFORM_CLIENTS[platform];
    if (!client) {
      return {
        name: 'client',
        status: 'ok',
        detail: `${platform} needs no client (toolkit deploy ${platform} prints a guide)`,
      };
    }
    const path = this.find(client);
    if (!path) {
      return {
        name: 'client',
        status: 'fail',
        detail: `${client.names.join(' or ')} not found on PATH (toolkit deploy ${platform} runs it)`,
        fix: `install it: ${client.install}`,
      };
    }
    const name = basename(path);
    const version = (await this.version(path)) ?? '(version unknown)';
    const label = version.toLowerCase().includes(name.toLowerCase())
      ? version
      : `${name} ${version}`;
    return {
      name: 'client',
      status: 'ok',
      detail: `${label} at ${path} (toolkit deploy ${platform})`,
    };
  }

  /** The first line `<bin> --version` prints, or `undefined` when it fails or hangs. */
  private async version(bin: string): Promise<string | undefined> {
    const result = await this.processes.capture(bin, ['--version'], {
      timeoutMs: VERSION_TIMEOUT_MS,
    });
    if (result.code !== 0) return undefined;
    const line = `${result.stdout}\n${result.stderr}`
      .split('\n')
      .map((text) => text.trim())
      .find(Boolean);
    return line ? line.slice(0, 100) : undefined;
  }

  /** Runs the client (output shown live); a non-zero exit is a {@link CliError}. */
  async run(
    bin: string,
    args: readonly string[],
    cwd: string,
    failure: string,
    hint?: string,
  ): Promise<RunResult> {
    this.terminal.info(`$ ${basename(bin)} ${args.join(' ')}`);
    const result = await this.processes.run(bin, args, { cwd });
    if (result.code !== 0) {
      throw new CliError(
        `${failure}: ${basename(bin)} exited with ${result.code ?? result.signal}`,
        { hint },
      );
    }
    return result;
  }
}
