/** What every MCP server entry may say, whatever its transport. */
interface McpServerCommon {
  /**
   * Start-up fails when this server cannot be reached; otherwise it is reported (a warning,
   * `toolkit doctor`) and the app starts without its tools. @default false
   */
  required?: boolean;
  /** Seconds connecting, listing tools and each tool call may take; overrides the global timeout. */
  timeout?: number;
}

/**
 * An MCP server toolkit starts as a child process and talks to over stdin/stdout.
 *
 * @example
 * const files: McpStdioServer = {
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-filesystem', './docs'],
 *   env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' },
 * };
 */
export interface McpStdioServer extends McpServerCommon {
  /** The executable to run. */
  command: string;
  /** Its arguments. @default [] */
  args?: string[];
  /**
   * Extra environment variables of the process, each value naming variables of toolkit's own
   * environment (`"${GITHUB_TOKEN}"`), read when it connects, so no secret lives in the file.
   */
  env?: Record<string, string>;
  /** Working directory of the process. @default process.cwd() */
  cwd?: string;
}

/**
 * An MCP server reached over Streamable HTTP.
 *
 * @example
 * const github: McpHttpServer = {
 *   url: 'https://api.githubcopilot.com/mcp/',
 *   headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
 * };
 */
export interface McpHttpServer extends McpServerCommon {
  /**
   * The server's endpoint (`http:` or `https:`), without credentials; `${NAME}` parts (a key in
   * the query, say) are read from the environment when it connects.
   */
  url: string;
  /** Request headers, each value naming environment variables (`"Bearer ${TOKEN}"`). */
  headers?: Record<string, string>;
}

/** One MCP server: a stdio `command` or a Streamable HTTP `url`. */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/**
 * MCP servers by name (letters, digits, `_` and `-`); their tools become toolkit tools named
 * `<server>__<tool>`.
 *
 * @example
 * const servers: McpServers = { everything: { command: 'mcp-server-everything', args: ['stdio'] } };
 */
export type McpServers = Record<string, McpServerConfig>;

/** Whether a server entry is a stdio one (it has a `command`). */
export function isStdioServer(config: McpServerConfig): config is McpStdioServer {
  return 'command' in config;
}
