/** Injection token of the resolved `McpServerModuleOptions`. */
export const MCP_SERVER_OPTIONS = Symbol.for('toolkit:mcp-server-options');

/** Largest tool result sent by default, in bytes (1 MiB). */
export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;

/** Path of the MCP endpoint by default. */
export const DEFAULT_MCP_PATH = '/mcp';
