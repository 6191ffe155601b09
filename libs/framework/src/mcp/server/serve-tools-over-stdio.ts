import type { Readable, Writable } from 'node:stream';
import type { DefinedTool } from '../../../../providers/src/index.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { DEFAULT_MAX_RESULT_BYTES } from './mcp-server.constants.js';
import { createToolServer } from './mcp-tool-handlers.js';

/** The identity a tool served over stdio sees as `context.session`: the local user. */
export const STDIO_SESSION = 'stdio';

/** What {@link serveToolsOverStdio} serves, and on which streams. */
export interface StdioServing {
  name: string;
  version: string;
  tools: readonly DefinedTool[];
  /** Where the client's messages arrive (newline-delimited JSON-RPC). */
  input: Readable;
  /** Where the answers go: nothing else may write there. */
  output: Writable;
  /** @default 1048576 (1 MiB) */
  maxResultBytes?: number;
}

/**
 * Serves tools to one local MCP client over stdio (what `toolkit mcp` runs): one stateful SDK
 * server, so a `notifications/cancelled` aborts the call's signal directly. Tools get
 * `context: { session: 'stdio' }`. Resolves once serving; `closed` settles when the client
 * closes the input.
 */
export async function serveToolsOverStdio(
  serving: StdioServing,
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const sdk = await loadMcpSdk();
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createToolServer(sdk, {
    name: serving.name,
    version: serving.version,
    tools: new Map(serving.tools.map((tool) => [tool.name, tool])),
    maxResultBytes: serving.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    context: { session: STDIO_SESSION },
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // The transport does not notice the end of its input by itself.
    serving.input.once('end', () => void server.close());
  });
  await server.connect(new StdioServerTransport(serving.input, serving.output));
  return { closed, close: () => server.close() };
}
