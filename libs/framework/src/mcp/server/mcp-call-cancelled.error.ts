/** The reason of a tool's signal when its MCP client cancelled the call. */
export class McpCallCancelledError extends Error {
  constructor(reason: string | undefined) {
    super(
      reason ? `The MCP client cancelled the call: ${reason}` : 'The MCP client cancelled the call',
    );
    this.name = 'McpCallCancelledError';
  }
}
