import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Command, CommanderError } from 'commander';
import { InjectCommander } from 'nest-commander';
import { describeProgram } from './root-help.js';

/** Commander's usage errors become exceptions, so the shell can map them to exit status 2. */
function throwCommanderExit(error: CommanderError): never {
  throw error;
}

/**
 * Makes every command behave the same once nest-commander has built them: commander errors are
 * thrown instead of exiting with commander's own status (it uses 1 for usage errors; toolkit
 * promises 2), surplus arguments are refused, and a usage error points at `--help`.
 * nest-commander adds subcommands with `addCommand`, which inherits none of these settings.
 */
@Injectable()
export class ProgramSetupService implements OnApplicationBootstrap {
  constructor(@InjectCommander() private readonly program: Command) {}

  onApplicationBootstrap(): void {
    describeProgram(this.program);
    const pending: Command[] = [this.program];
    for (let command = pending.pop(); command; command = pending.pop()) {
      command
        .exitOverride(throwCommanderExit)
        .allowExcessArguments(false)
        .showHelpAfterError('(add --help for additional information)');
      pending.push(...command.commands);
    }
  }
}
