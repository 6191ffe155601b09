import { errorMessage } from '../llm/provider/abort.js';
import { McpError } from './mcp.error.js';
import type { McpSdk } from './mcp-sdk.js';

/** How a failed request is handled: ran out of time, the connection is gone, or the server said no. */
export type McpFailure = 'timeout' | 'lost' | 'lost-before-sending' | 'refused';

/**
 * Sorts an error of an SDK request. `lost-before-sending` means the request cannot have reached
 * a live session (connection refused, a session a restarted server does not know, transport not
 * connected), so sending it again after reconnecting runs the tool once.
 */
export function classifyMcpFailure(sdk: McpSdk, error: unknown): McpFailure {
  const { McpError, ErrorCode } = sdk.types;
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.RequestTimeout)) return 'timeout';
    if (error.code === Number(ErrorCode.ConnectionClosed)) return 'lost';
    return 'refused';
  }
  // A session the server no longer knows (it restarted): 404 by the spec, 400 from some servers.
  if (
    error instanceof sdk.http.StreamableHTTPError &&
    (error.code === 404 || (error.code === 400 && /session/i.test(error.message)))
  ) {
    return 'lost-before-sending';
  }
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (cause?.code === 'ECONNREFUSED' || /^Not connected$/.test(errorMessage(error))) {
    return 'lost-before-sending';
  }
  return 'lost';
}

/** A failed call: which server and tool, its timeout, and how it failed. */
export interface McpCallFailure {
  server: string;
  tool: string;
  /** The call's timeout in seconds. */
  seconds: number;
  failure: McpFailure;
  error: unknown;
}

/**
 * The error a failed call ends with, naming server and tool; `diagnostics` (the server's last
 * protocol error and stderr) explain a call that got no answer.
 */
export function callFailure(sdk: McpSdk, call: McpCallFailure, diagnostics: string): McpError {
  const { server, tool, error } = call;
  if (call.failure === 'timeout') {
    const problem = `did not answer within ${call.seconds} s${diagnostics}`;
    return new McpError(server, problem, { tool, cause: error });
  }
  if (call.failure === 'refused' && error instanceof sdk.types.McpError) {
    return new McpError(server, `failed: ${error.message}`, { tool, cause: error });
  }
  return new McpError(server, `lost its connection: ${errorMessage(error)}`, {
    tool,
    cause: error,
  });
}
