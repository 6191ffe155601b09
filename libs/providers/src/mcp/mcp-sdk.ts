import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK (`@modelcontextprotocol/sdk`) the MCP client uses. */
export interface McpSdk {
  /** `@modelcontextprotocol/sdk/client/index.js`. */
  client: typeof ClientModule;
  /** `@modelcontextprotocol/sdk/client/stdio.js`. */
  stdio: typeof StdioModule;
  /** `@modelcontextprotocol/sdk/client/streamableHttp.js`. */
  http: typeof HttpModule;
  /** `@modelcontextprotocol/sdk/types.js`. */
  types: typeof TypesModule;
}

const PACKAGE = '@modelcontextprotocol/sdk';
let sdk: Promise<McpSdk> | undefined;

/**
 * Loads the MCP SDK on first use, so importing toolkit (and an app with no `mcp.servers`) never
 * pays for it. When the optional peer is missing, the error says how to install it.
 *
 * @example
 * const { client } = await loadMcpSdk();
 * const mcp = new client.Client({ name: 'toolkit', version: '1.0.0' });
 */
export function loadMcpSdk(): Promise<McpSdk> {
  sdk ??= load().catch((error: unknown) => {
    sdk = undefined;
    throw error;
  });
  return sdk;
}

async function load(): Promise<McpSdk> {
  try {
    // One after the other: the modules share dependencies, and concurrent imports of the same
    // graph trip some ESM loaders (Jest's VM modules).
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const client = await import('@modelcontextprotocol/sdk/client/index.js');
    const stdio = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const http = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return { client, stdio, http, types };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(`mcp.servers is set but ${PACKAGE} is not installed: npm install ${PACKAGE}`, {
      cause: error,
    });
  }
}
