import { ConfigError } from '../errors/config.error.js';
import type { DefinedTool } from '../llm/tools/tool.js';
import { McpConnection } from './mcp-connection.js';
import type { McpError } from './mcp.error.js';
import type { McpServers } from './mcp-server-config.js';
import type { McpServerStatus } from './mcp-server-status.js';
import { parseMcpServers } from './parse-mcp-servers.js';

/** Options of {@link connectMcpServers}. */
export interface McpToolsetOptions {
  /** Seconds for connecting, listing tools and each call; a server's `timeout` wins. @default 30 */
  timeout?: number;
  /** Largest tool result, in bytes of JSON; a larger one is an error naming server and tool. @default 1048576 */
  maxResultBytes?: number;
  /** Where `${NAME}` references of headers and env are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Told of each problem (a server down, a tool skipped), e.g. to log a warning. @default none */
  onProblem?: (error: McpError) => void;
}

/**
 * The tools of a set of MCP servers, kept current (`tools/list_changed`, reconnection).
 *
 * @example
 * const mcp = await connectMcpServers({ everything: { command: 'mcp-server-everything' } });
 * await llm.generate('/tool everything__echo {"message":"hi"}', { tools: mcp.tools() });
 * await mcp.close();
 */
export interface McpToolset {
  /** Every server's tools as toolkit tools named `<server>__<tool>`, in server order. */
  tools(): DefinedTool[];
  /** Where each server stands, in configuration order. */
  status(): McpServerStatus[];
  /** Disconnects every server (stopping stdio server processes). */
  close(): Promise<void>;
}

/**
 * Connects to MCP servers (stdio commands or Streamable HTTP URLs) at once and makes their tools
 * toolkit tools. A server that cannot be reached is reported through `onProblem` and retried in
 * the background, unless it is `required`: then every connection is closed and this rejects with
 * an `McpError` naming it. A bad server entry throws a `ConfigError` naming the key.
 *
 * @example
 * const mcp = await connectMcpServers(
 *   { github: { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } } },
 *   { timeout: 10, onProblem: (error) => console.warn(error.message) },
 * );
 */
export async function connectMcpServers(
  servers: McpServers,
  options: McpToolsetOptions = {},
): Promise<McpToolset> {
  const parsed = parseMcpServers(servers);
  if ('problem' in parsed) {
    const key = parsed.path ? `servers.${parsed.path}` : 'servers';
    throw new ConfigError(key, parsed.problem, 'connectMcpServers()');
  }
  const settings = {
    timeout: options.timeout ?? 30,
    maxResultBytes: options.maxResultBytes ?? 1024 * 1024,
    env: options.env ?? process.env,
    onProblem: options.onProblem ?? ((): void => undefined),
  };
  const connections = Object.entries(parsed.value).map(
    ([name, config]) => new McpConnection(name, config, settings),
  );
  const results = await Promise.allSettled(connections.map((c) => c.connect()));
  const failed = results.findIndex(
    (result, i) => result.status === 'rejected' && connections[i].config.required === true,
  );
  if (failed >= 0) {
    await Promise.all(connections.map((c) => c.close()));
    throw (results[failed] as PromiseRejectedResult).reason;
  }
  results.forEach((result, i) => {
    if (result.status === 'rejected') connections[i].scheduleReconnect();
  });
  return {
    tools: () => connections.flatMap((c) => c.currentTools()),
    status: () => connections.map((c) => c.status()),
    close: async () => {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}
