import { ToolkitError } from '../errors/toolkit.error.js';

/**
 * A problem with an MCP server or one of its tools: a bad server entry, a server that cannot be
 * reached, a tool that is skipped, a call that failed or timed out. The message always names the
 * server (and the tool when there is one), so a log line says which one to fix.
 *
 * @example
 * throw new McpError('github', 'is not reachable: connect ECONNREFUSED', { tool: 'search' });
 */
export class McpError extends ToolkitError {
  /** The server's name, as configured under `mcp.servers`. */
  readonly server: string;
  /** The MCP tool's own name (not the toolkit `<server>__<tool>` name), when a tool is concerned. */
  readonly tool: string | undefined;
  /** What is wrong, without the subject (`is not reachable: ...`). */
  readonly problem: string;

  constructor(server: string, problem: string, options: { tool?: string; cause?: unknown } = {}) {
    const subject =
      options.tool === undefined
        ? `MCP server "${server}"`
        : `MCP server "${server}" tool "${options.tool}"`;
    super(`${subject} ${problem}`, { statusCode: 502, cause: options.cause });
    this.server = server;
    this.tool = options.tool;
    this.problem = problem;
  }
}
