import { defineTool } from '../llm/tools/tool.js';
import type { DefinedTool, ToolContext } from '../llm/tools/tool.js';
import type { SchemaInput } from '../llm/tools/schema-validator.js';
import { McpError } from './mcp.error.js';

/** A tool as an MCP server lists it (`tools/list`), the fields toolkit uses. */
export interface McpListedTool {
  /** The server's name for it. */
  name: string;
  /** What it does, for the model. */
  description?: string;
  /** Human-readable title, used when there is no description. */
  title?: string;
  /** JSON Schema of its arguments. */
  inputSchema: Record<string, unknown>;
}

/** Calls one tool of the server (by its MCP name) and returns what the model should see. */
export type McpToolCall = (
  tool: string,
  args: Record<string, unknown>,
  context: ToolContext,
) => Promise<unknown>;

const SEPARATOR = '__';

/**
 * The toolkit name of an MCP tool: `<server>__<tool>`, characters a tool name may not hold
 * (`.`, `/`, spaces...) replaced by `_`; `undefined` when it is longer than 64 characters.
 *
 * @example
 * mcpToolName('github', 'search.issues'); // 'github__search_issues'
 */
export function mcpToolName(server: string, tool: string): string | undefined {
  const name = `${server}${SEPARATOR}${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return tool.length > 0 && name.length <= 64 ? name : undefined;
}

/**
 * An MCP tool as a toolkit tool (see `defineTool`), its JSON Schema compiled like a `@Tool()`'s.
 * A name that cannot be made valid or a schema that is not valid JSON Schema throws an
 * {@link McpError} naming the server and the tool.
 */
export function fromMcpTool(server: string, tool: McpListedTool, call: McpToolCall): DefinedTool {
  const name = mcpToolName(server, tool.name);
  if (!name) {
    throw new McpError(
      server,
      'is skipped: its name cannot be made a tool name (1-64 letters, digits, "_" or "-" with the server prefix)',
      { tool: tool.name },
    );
  }
  // The SDK's schemas may name a newer draft; the `type: object` body is what ajv checks.
  const { $schema: _draft, ...parameters } = tool.inputSchema;
  try {
    return defineTool<SchemaInput, unknown>({
      name,
      description: tool.description ?? tool.title ?? '',
      parameters,
      execute: (args, context) => call(tool.name, args as Record<string, unknown>, context),
    });
  } catch (error) {
    const problem = (error as { problem?: string }).problem ?? (error as Error).message;
    throw new McpError(
      server,
      `is skipped: its input schema is not valid JSON Schema (${problem})`,
      {
        tool: tool.name,
        cause: error,
      },
    );
  }
}
