import type { McpServerConfig } from '../../../../libs/providers/src/index.js';
import { connectMcpServers, type McpToolset } from '../../../../libs/providers/src/index.js';
import { errorMessage, isStdioServer } from '../../../../libs/providers/src/internal.js';
import type { McpSettings } from '../../../../libs/framework/src/index.js';
import { redactUrl, type DoctorCheck } from './doctor-check.js';

/** Longest `toolkit doctor` waits for one server, whatever `mcp.timeout` says. */
const MAX_WAIT_S = 10;

/**
 * Connects to each server of `mcp.servers` once (in parallel) and lists its tools: `ok` with the
 * tool count, or, for a server that cannot be reached, `fail` when it is `required` (the app would
 * not start) and `warn` otherwise, with the fix. Skipped tools make a `warn` naming them. Header
 * and env values are never printed.
 *
 * @example
 * const checks = await probeMcpServers(config.mcp, env);
 */
export function probeMcpServers(
  settings: McpSettings,
  env: NodeJS.ProcessEnv,
): Promise<DoctorCheck[]> {
  return Promise.all(
    Object.entries(settings.servers).map(([name, server]) => probe(name, server, settings, env)),
  );
}

async function probe(
  name: string,
  server: McpServerConfig,
  settings: McpSettings,
  env: NodeJS.ProcessEnv,
): Promise<DoctorCheck> {
  const label = `${name} (${describe(server)})`;
  const timeout = Math.min(server.timeout ?? settings.timeout, MAX_WAIT_S);
  const start = performance.now();
  let mcp: McpToolset;
  try {
    mcp = await connectMcpServers(
      { [name]: { ...server, required: true, timeout } },
      { env, maxResultBytes: settings.max_result_size },
    );
  } catch (error) {
    return {
      name: 'mcp',
      status: server.required ? 'fail' : 'warn',
      detail: `${label} unreachable: ${errorMessage(error).split('\n')[0]}`,
      fix: fixFor(name, server, errorMessage(error)),
    };
  }
  const ms = Math.round(performance.now() - start);
  const [status] = mcp.status();
  await mcp.close();
  const tools = `${status.tools.length} tool${status.tools.length === 1 ? '' : 's'}`;
  if (status.skipped.length > 0) {
    return {
      name: 'mcp',
      status: 'warn',
      detail: `${label} connected, ${tools}; skipped: ${status.skipped.join('; ')}`,
      fix: `fix those tools on the server, or ask its maintainers to`,
      ms,
    };
  }
  return { name: 'mcp', status: 'ok', detail: `${label} connected, ${tools}`, ms };
}

function describe(server: McpServerConfig): string {
  return isStdioServer(server) ? `stdio: ${server.command}` : `http: ${redactUrl(server.url)}`;
}

function fixFor(name: string, server: McpServerConfig, message: string): string {
  const variable = /names \$\{(\w+)\}, which is not set/.exec(message)?.[1];
  if (variable) return `put ${variable}=<value> in .env (mcp.servers.${name} reads it)`;
  if (isStdioServer(server)) {
    return `check that "${server.command}" starts an MCP server (install it, or fix mcp.servers.${name}.command and args)`;
  }
  return `start the MCP server at ${redactUrl(server.url)}, or fix mcp.servers.${name}.url and headers`;
}
