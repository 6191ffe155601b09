import { Command, CommandRunner, Option } from 'nest-commander';
import { DOCS_COMMAND, DOCS_OPTIONS } from '../command-manifest.js';
import { DocsService } from '../docs/docs.service.js';
import { UsageError } from '../errors/cli.errors.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit docs` after parsing. */
export interface DocsOptions {
  serve?: boolean;
  build?: boolean;
  port: number;
}

/**
 * `toolkit docs [--serve|--build] [-p|--port 8001]`: serves the docs with hot reload (default)
 * or builds the static site into `site/`.
 */
@Command(DOCS_COMMAND)
export class DocsCommand extends CommandRunner {
  constructor(private readonly docs: DocsService) {
    super();
  }

  async run(_args: string[], options: DocsOptions): Promise<void> {
    if (options.serve && options.build)
      throw new UsageError('choose either --serve or --build, not both');
    const cwd = process.cwd();
    if (options.build) await this.docs.build(cwd);
    else await this.docs.serve(cwd, options.port);
  }

  @Option(optionMetadata(DOCS_OPTIONS.serve))
  parseServe(): boolean {
    return true;
  }

  @Option(optionMetadata(DOCS_OPTIONS.build))
  parseBuild(): boolean {
    return true;
  }

  @Option(optionMetadata(DOCS_OPTIONS.port))
  parsePort(value: string): number {
    return DOCS_OPTIONS.port.parse(value);
  }
}
