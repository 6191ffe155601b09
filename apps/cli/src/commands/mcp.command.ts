import { Command, CommandRunner, Option } from 'nest-commander';
import { MCP_COMMAND, MCP_OPTIONS } from '../command-manifest.js';
import { parseAppSpec } from '../dev/app-spec.js';
import { SilentExitError } from '../errors/cli.errors.js';
import { McpStdioService } from '../mcp/mcp-stdio.service.js';
import { optionMetadata } from './option-metadata.js';

/** Options of `toolkit mcp` after parsing. */
export interface McpOptions {
  app: string;
}

/**
 * `toolkit mcp [-a|--app app:app]`: serves the app's `@Tool()` methods over MCP on stdio, for a
 * local client that starts it (e.g. Claude Desktop's `"command": "npx", "args": ["toolkit", "mcp"]`).
 */
@Command(MCP_COMMAND)
export class McpCommand extends CommandRunner {
  constructor(private readonly stdio: McpStdioService) {
    super();
  }

  async run(_args: string[], options: McpOptions): Promise<void> {
    const code = await this.stdio.serve({ cwd: process.cwd(), app: parseAppSpec(options.app) });
    if (code !== 0) throw new SilentExitError(code);
  }

  @Option(optionMetadata(MCP_OPTIONS.app))
  parseApp(value: string): string {
    return MCP_OPTIONS.app.parse(value);
  }
}
