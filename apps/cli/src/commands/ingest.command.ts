import { Command, CommandRunner, Option } from 'nest-commander';
import { INGEST_COMMAND, INGEST_OPTIONS } from '../command-manifest.js';
import { IngestService } from '../ingest/ingest.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit ingest` after parsing. */
export interface IngestOptions {
  wait?: boolean;
  json?: boolean;
}

/**
 * `toolkit ingest <folder> [--wait] [--json]`: puts a folder's files into the project's document
 * index, through the Redis queue when the project has Redis, else in this process.
 */
@Command(INGEST_COMMAND)
export class IngestCommand extends CommandRunner {
  constructor(private readonly ingest: IngestService) {
    super();
  }

  async run(args: string[], options: IngestOptions): Promise<void> {
    await this.ingest.run({
      cwd: process.cwd(),
      env: process.env,
      folder: args[0] ?? '',
      wait: options.wait ?? false,
      json: options.json ?? false,
    });
  }

  @Option(optionMetadata(INGEST_OPTIONS.wait))
  parseWait(): boolean {
    return true;
  }

  @Option(optionMetadata(INGEST_OPTIONS.json))
  parseJson(): boolean {
    return true;
  }
}
