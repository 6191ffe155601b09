import type { McpServers } from '../../../../providers/src/index.js';

/** Resolved `mcp.*` settings: the MCP servers whose tools the app uses. */
export interface McpSettings {
  /**
   * MCP servers by name, each a stdio `command` (with `args`, `env`, `cwd`) or a Streamable HTTP
   * `url` (with `headers`), plus `required` and `timeout`. Header and env values may only name
   * environment variables (`"Bearer ${GITHUB_TOKEN}"`). Their tools join `ToolRegistry` as
   * `<server>__<tool>`. From the environment: `TOOLKIT_MCP_SERVERS` as JSON. @default {}
   */
  servers: McpServers;
  /** Seconds for connecting to a server, listing its tools and each tool call. @default 30 */
  timeout: number;
  /** Largest MCP tool result in bytes; a larger one is a tool error naming server and tool. @default 1048576 */
  max_result_size: number;
}
