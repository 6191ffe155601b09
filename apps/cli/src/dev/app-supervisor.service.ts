import { Injectable } from '@nestjs/common';
import { TerminalService } from '../services/terminal.service.js';
import { Supervision } from './supervision.js';

/** What {@link AppSupervisorService.serve} serves and how. */
export interface SuperviseOptions {
  /** Project folder: the app's working directory and the watched tree. */
  cwd: string;
  /** Absolute path of the module exporting the app. */
  appFile: string;
  /** Name of the export holding the app. */
  exportName: string;
  host: string;
  port: number;
  /** Restart on `*.ts` changes; without it the CLI ends when the app does. */
  reload: boolean;
  /** Environment of the app process. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Grace period before a server that ignores SIGTERM is killed, in ms. @default 5000 */
  killAfterMs?: number;
}

/**
 * Serves the user's app in a child process that runs TypeScript through toolkit's loader (so
 * decorator metadata exists), restarts it when sources change, and on SIGINT/SIGTERM stops it
 * and waits for it to exit before resolving 0: Ctrl+C never leaves a server behind.
 *
 * @example
 * const code = await supervisor.serve({ cwd, appFile, exportName: 'app', host, port, reload: true });
 */
@Injectable()
export class AppSupervisorService {
  constructor(private readonly terminal: TerminalService) {}

  /** Serves until interrupted (resolves 0) or, without reload, until the app exits (its code). */
  serve(options: SuperviseOptions): Promise<number> {
    return new Supervision(options, this.terminal).run();
  }
}
