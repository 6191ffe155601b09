/**
 * Where one MCP server stands: `connecting`, `connected`, `down` (unreachable or lost; toolkit
 * keeps retrying in the background) or `closed`.
 */
export type McpServerState = 'connecting' | 'connected' | 'down' | 'closed';

/**
 * One configured MCP server as `McpToolset.status()` reports it (and `toolkit doctor` shows it).
 *
 * @example
 * for (const s of toolset.status()) console.log(s.name, s.state, s.error ?? `${s.tools.length} tools`);
 */
export interface McpServerStatus {
  /** The server's name under `mcp.servers`. */
  name: string;
  /** `stdio` (a command) or `http` (Streamable HTTP). */
  transport: 'stdio' | 'http';
  /** Whether start-up fails without it. */
  required: boolean;
  /** Connection state. */
  state: McpServerState;
  /** The toolkit names of its tools (`<server>__<tool>`), last listed. */
  tools: string[];
  /** Tools skipped (bad name, invalid schema, name collision), one message each. */
  skipped: string[];
  /** Why it is down, when it is. */
  error?: string;
  /** The server process id (stdio, while connected). */
  pid?: number;
}
