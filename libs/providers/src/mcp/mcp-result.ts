import { McpError } from './mcp.error.js';

/** The fields of an MCP `tools/call` result toolkit reads. */
export interface McpCallResult {
  /** Text, images, resources... */
  content?: ReadonlyArray<{ type: string; text?: string } & Record<string, unknown>>;
  /** The tool's structured output, when it has an output schema. */
  structuredContent?: Record<string, unknown>;
  /** The tool failed; `content` says why. */
  isError?: boolean;
}

/**
 * What the model sees of an MCP tool's result: its structured content when there is some, else
 * its text parts joined (other content parts as JSON). A result over `maxBytes` and a result
 * marked `isError` throw an {@link McpError} naming the server and tool (the tool loop reports it
 * to the model).
 *
 * @example
 * mcpResultValue({ content: [{ type: 'text', text: 'Echo: hi' }] }, 'everything', 'echo', 1e6); // 'Echo: hi'
 */
export function mcpResultValue(
  result: McpCallResult,
  server: string,
  tool: string,
  maxBytes: number,
): unknown {
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size > maxBytes) {
    throw new McpError(
      server,
      `returned ${size} bytes, over the limit of ${maxBytes} (mcp.max_result_size)`,
      { tool },
    );
  }
  const parts = result.content ?? [];
  const text = parts.every((part) => part.type === 'text')
    ? parts.map((part) => part.text ?? '').join('\n')
    : undefined;
  if (result.isError) {
    throw new McpError(server, `failed: ${text ?? JSON.stringify(parts)}`, { tool });
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  return text ?? parts;
}
