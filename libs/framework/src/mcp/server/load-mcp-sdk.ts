import { isNotFound } from '../../telemetry/load-peer.js';

/** The parts of `@modelcontextprotocol/sdk` the MCP server uses, loaded on first use. */
export interface McpServerSdk {
  server: typeof import('@modelcontextprotocol/sdk/server/index.js');
  http: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
}

let loading: Promise<McpServerSdk> | undefined;

/**
 * Loads the optional peer `@modelcontextprotocol/sdk` the first time an MCP request arrives (so
 * importing toolkit never loads it), or fails saying how to install it.
 */
export function loadMcpSdk(): Promise<McpServerSdk> {
  loading ??= load();
  return loading;
}

async function load(): Promise<McpServerSdk> {
  try {
    // One after the other: they share modules (zod), which Jest's ESM loader cannot link
    // from two imports at once.
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const server = await import('@modelcontextprotocol/sdk/server/index.js');
    const http = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    return { server, http, types };
  } catch (error) {
    loading = undefined;
    if (!isNotFound(error)) throw error;
    throw new Error(
      'McpServerModule serves tools over MCP with @modelcontextprotocol/sdk, which is not ' +
        'installed: npm install @modelcontextprotocol/sdk',
      { cause: error },
    );
  }
}
