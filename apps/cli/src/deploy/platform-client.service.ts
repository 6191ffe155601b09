import { Injectable } from '@nestjs/common';
import { basename } from 'node:path';
import { CliError, MissingToolError } from '../errors/cli.errors.js';
import { ProcessService, type RunResult } from '../services/process.service.js';
import { TerminalService } from '../services/terminal.service.js';

/** A platform's command-line client. */
export interface ClientSpec {
  /** Executable names tried in order, e.g. `['flyctl', 'fly']`. */
  names: readonly string[];
  /** How to install it, shown when it is missing. */
  install: string;
}

/**
 * Finds and runs deploy clients (`flyctl`, `heroku`, `vercel`). A missing client and a client
 * that fails both end the command with status 1 and a next step.
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

  /** The client's path on PATH; throws a {@link MissingToolError} with the install hint. */
  locate(client: ClientSpec): string {
    for (const name of client.names) {
      const path = this.processes.which(name);
      if (path) return path;
    }
    const [first] = client.names;
    throw new MissingToolError(
      first,
      client.install,
      `The ${first} command-line client was not found on PATH`,
    );
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
