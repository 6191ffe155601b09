import { Command, CommandRunner, Option } from 'nest-commander';
import { DEFAULT_DOCS_PORT } from '../cli.constants.js';
import { DOCS_COMMAND } from '../command-manifest.js';
import { DocsService } from '../docs/docs.service.js';
import { UsageError } from '../errors/cli.errors.js';
import { parsePort } from './option-parsers.js';

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

  @Option({ flags: '--serve', description: 'serve the docs with hot reload (default)' })
  parseServe(): boolean {
    return true;
  }

  @Option({ flags: '--build', description: 'build the static site into site/' })
  parseBuild(): boolean {
    return true;
  }

  @Option({
    flags: '-p, --port <port>',
    description: 'port of the docs server',
    defaultValue: DEFAULT_DOCS_PORT,
  })
  parsePort(value: string): number {
    return parsePort(value);
  }
}
