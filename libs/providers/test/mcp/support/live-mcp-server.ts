import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { z } from 'zod';

/** An official SDK `McpServer` in the test process, served over Streamable HTTP on a free port. */
export interface LiveMcpServer {
  url: string;
  /** Adds a tool answering `text` (the SDK then sends `notifications/tools/list_changed`). */
  addTool(name: string, text: string): void;
  close(): Promise<void>;
}

/** Starts the server with one tool, `first`, for one client session. */
export async function startLiveMcpServer(): Promise<LiveMcpServer> {
  const mcp = new McpServer({ name: 'live', version: '1.0.0' });
  const addTool = (name: string, text: string): void => {
    mcp.registerTool(
      name,
      { description: `Says ${text}`, inputSchema: { who: z.string().optional() } },
      () => ({ content: [{ type: 'text', text }] }),
    );
  };
  addTool('first', 'one');
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const http: Server = createServer((req, res) => {
    void transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    addTool,
    close: async () => {
      await mcp.close();
      http.closeAllConnections();
      http.close();
    },
  };
}
