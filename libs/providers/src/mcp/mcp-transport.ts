import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { interpolateAll, interpolateEnv } from './env-reference.js';
import type { McpSdk } from './mcp-sdk.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';

/** A transport to one server, and what its process last wrote to stderr (stdio only). */
export interface OpenedTransport {
  /** The SDK transport, not started yet (`client.connect()` starts it). */
  transport: Transport;
  /** The last lines the server process wrote to stderr, for error messages. */
  stderrTail(): string;
  /** The server process id once started (stdio only). */
  pid(): number | undefined;
}

const STDERR_TAIL = 2000;

/**
 * Builds the SDK transport of one configured server: a child process over stdio (its stderr kept
 * for error messages instead of mixed into the app's), or Streamable HTTP with its headers. Header
 * and env values are interpolated from `env` now, so a missing variable is an error naming the
 * server and key.
 */
export function createMcpTransport(
  sdk: McpSdk,
  server: string,
  config: McpServerConfig,
  env: NodeJS.ProcessEnv,
): OpenedTransport {
  if (!isStdioServer(config)) {
    const headers = interpolateAll(config.headers, env, server, 'headers');
    const url = new URL(interpolateEnv(config.url, env, server, 'url'));
    const transport = new sdk.http.StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      // The connection reconnects itself (a new session, tools listed again); the SDK's own
      // retries of the event stream would outlive `close()` by seconds.
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 30_000,
        reconnectionDelayGrowFactor: 1.5,
      },
    });
    return { transport, stderrTail: () => '', pid: () => undefined };
  }
  const transport = new sdk.stdio.StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env: interpolateAll(config.env, env, server, 'env'),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'pipe',
  });
  let tail = '';
  // Read it always: a full pipe would block the server.
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  return {
    transport,
    stderrTail: () => tail.trim(),
    pid: () => transport.pid ?? undefined,
  };
}
