import { Injectable } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeCandidates, locateAppFile, type AppSpec } from '../dev/app-spec.js';
import { CliError } from '../errors/cli.errors.js';

/** Path of the script that serves the app's tools over stdio in a child process. */
const SERVE_MCP_PATH = fileURLToPath(new URL('../runtime/serve-mcp.js', import.meta.url));

/** What `toolkit mcp` asked for. */
export interface McpStdioRequest {
  cwd: string;
  app: AppSpec;
}

/**
 * Serves the project's `@Tool()` methods to a local MCP client (Claude Desktop, an IDE) over
 * stdio. The app runs in a child process whose stdout is this process's stderr and whose fd 3 is
 * this process's stdout, so only MCP messages reach the client, whatever the app logs.
 */
@Injectable()
export class McpStdioService {
  /** Runs until the client closes stdin (or SIGINT/SIGTERM); resolves the exit status. */
  async serve({ cwd, app }: McpStdioRequest): Promise<number> {
    const file = locateAppFile(cwd, app);
    if (!file) {
      throw new CliError(
        `Application file not found: no ${describeCandidates(cwd, app)} in ${cwd}`,
        {
          hint: 'Run this command in the project folder, or point to the app with --app <module>:<export>.',
        },
      );
    }
    const child = spawn(process.execPath, [SERVE_MCP_PATH, file, app.exportName], {
      cwd,
      stdio: ['inherit', 2, 'inherit', 1],
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    try {
      return await new Promise<number>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve(code ?? 1));
      });
    } finally {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    }
  }
}
