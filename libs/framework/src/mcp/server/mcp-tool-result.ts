import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's return value as an MCP result: a string as text, anything else as JSON text. */
export function toolResult(value: unknown, maxBytes: number): CallToolResult {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    return toolError(`The result is ${bytes} bytes, over the server's limit of ${maxBytes}`);
  }
  // An object also as structured content, which clients may read without parsing the text.
  const structured: unknown = typeof value === 'object' && value !== null ? JSON.parse(text) : text;
  return {
    content: [{ type: 'text', text }],
    ...(isRecord(structured) ? { structuredContent: structured } : {}),
  };
}

/** An `isError` result: the client (and its model) reads the message, never a stack. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
