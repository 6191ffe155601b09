import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Command } from 'commander';
import { InjectCommander } from 'nest-commander';
import { configureCommand } from './command-line.js';
import { describeProgram } from './root-help.js';

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
      configureCommand(command);
      pending.push(...command.commands);
    }
  }
}
