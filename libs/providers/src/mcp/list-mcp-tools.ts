import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DefinedTool } from '../llm/tools/tool.js';
import { McpError } from './mcp.error.js';
import { fromMcpTool, type McpToolCall } from './mcp-tool.js';

/** A server's usable tools, and one error per tool skipped. */
export interface ListedMcpTools {
  /** Toolkit tools named `<server>__<tool>`. */
  tools: DefinedTool[];
  /** Tools left out: a name that cannot be made valid, an invalid schema, a name collision. */
  skipped: McpError[];
}

/** Pages a server may return before toolkit stops asking (a server that loops on its cursor). */
const MAX_PAGES = 100;

/**
 * Lists every tool of a server (following `nextCursor`, each page within `timeoutMs`) as toolkit
 * tools calling `call`. A bad tool is skipped with an error naming server and tool; the others
 * are kept.
 */
export async function listMcpTools(
  client: Client,
  server: string,
  timeoutMs: number,
  call: McpToolCall,
): Promise<ListedMcpTools> {
  const tools: DefinedTool[] = [];
  const skipped: McpError[] = [];
  const owners = new Map<string, string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout: timeoutMs,
    });
    for (const tool of listed.tools) {
      try {
        const defined = fromMcpTool(server, tool, call);
        const owner = owners.get(defined.name);
        if (owner !== undefined) {
          throw new McpError(
            server,
            `is skipped: its name ${defined.name} collides with tool "${owner}" of the same server`,
            { tool: tool.name },
          );
        }
        owners.set(defined.name, tool.name);
        tools.push(defined);
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        skipped.push(error);
      }
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools, skipped };
}
