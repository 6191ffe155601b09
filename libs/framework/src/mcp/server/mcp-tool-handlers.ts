import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DefinedTool } from '../../../../providers/src/index.js';
import { errorMessage, compiledSchemaOf } from '../../../../providers/src/internal.js';
import type { McpServerSdk } from './load-mcp-sdk.js';
import type { McpRequestId } from './mcp-cancellations.js';
import { toolError, toolResult } from './mcp-tool-result.js';

/** What else ends one call besides its SDK request's own cancellation, and its clean-up. */
export interface CallWatch {
  /** Aborts the call (the connection closed, a cancellation arrived in another request). */
  signal: AbortSignal;
  /** Runs once the tool settled, before its result is sent. */
  settled(): Promise<void>;
}

/** What an MCP server of tools is made of. */
export interface ToolServing {
  /** Announced to clients (`initialize`). */
  name: string;
  version: string;
  tools: ReadonlyMap<string, DefinedTool>;
  /** Largest result text sent, in bytes. */
  maxResultBytes: number;
  /** The tools' `context` (who is calling). */
  context: Readonly<Record<string, unknown>>;
  /** Called as each call starts. */
  watch?(id: McpRequestId): CallWatch;
}

/**
 * An SDK server answering `tools/list` (name, description, JSON Schema) and `tools/call`: the
 * arguments checked against the tool's schema (an `isError` result naming the bad one, and no
 * run), the tool run with `{ signal, callId, context }`, a throw reported as an `isError`
 * result with its message. Strings go back as text, anything else as JSON text (objects also as
 * `structuredContent`). An unknown tool is a protocol error naming the known ones.
 */
export function createToolServer(sdk: McpServerSdk, serving: ToolServing): Server {
  const { ListToolsRequestSchema, CallToolRequestSchema, McpError, ErrorCode } = sdk.types;
  const { tools } = serving;
  const server = new sdk.server.Server(
    { name: serving.name, version: serving.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: compiledSchemaOf(tool).jsonSchema as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const tool = tools.get(name);
    if (!tool) {
      const known = [...tools.keys()].join(', ') || 'none';
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}" (tools: ${known})`);
    }
    const checked = await compiledSchemaOf(tool).check(request.params.arguments ?? {});
    if (!checked.ok) return toolError(`Invalid arguments for tool "${name}": ${checked.problem}`);
    const watch = serving.watch?.(extra.requestId);
    const signal = watch ? AbortSignal.any([extra.signal, watch.signal]) : extra.signal;
    let result: CallToolResult;
    try {
      const value: unknown = await tool.execute(checked.value, {
        signal,
        callId: String(extra.requestId),
        context: serving.context,
      });
      result = toolResult(value, serving.maxResultBytes);
    } catch (error) {
      result = toolError(errorMessage(error));
    }
    await watch?.settled();
    return result;
  });
  return server;
}
