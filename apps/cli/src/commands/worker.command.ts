import { Command, CommandRunner, Option } from 'nest-commander';
import { DEFAULT_WORKER_CONCURRENCY, WORKER_COMMAND, WORKER_OPTIONS } from '../command-manifest.js';
import { WorkerService } from '../ingest/worker.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit worker` after parsing. */
export interface WorkerOptions {
  concurrency?: number;
}

/** `toolkit worker [-c|--concurrency N]`: processes the project's ingestion jobs until stopped. */
@Command(WORKER_COMMAND)
export class WorkerCommand extends CommandRunner {
  constructor(private readonly worker: WorkerService) {
    super();
  }

  async run(_args: string[], options: WorkerOptions): Promise<void> {
    await this.worker.run({
      cwd: process.cwd(),
      env: process.env,
      concurrency: options.concurrency ?? DEFAULT_WORKER_CONCURRENCY,
    });
  }

  @Option(optionMetadata(WORKER_OPTIONS.concurrency))
  parseConcurrency(value: string): number {
    return WORKER_OPTIONS.concurrency.parse(value);
  }
}
