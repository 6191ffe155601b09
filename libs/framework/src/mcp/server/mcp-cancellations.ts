import { Injectable } from '@nestjs/common';
import { McpCallCancelledError } from './mcp-call-cancelled.error.js';

/** A JSON-RPC request id, as MCP clients send it. */
export type McpRequestId = string | number;

/**
 * The tool calls in flight in this process, by caller and JSON-RPC id, so that a
 * `notifications/cancelled` (which a stateless server receives in its own POST) aborts the
 * call it names, and only a call of the same caller (see `mcpCallerKey`).
 */
@Injectable()
export class McpCancellations {
  private readonly calls = new Map<string, AbortController>();

  /** Tracks one call until `release()`; its controller aborts on a matching `cancel()`. */
  track(caller: string, id: McpRequestId): { signal: AbortSignal; release(): void } {
    const key = keyOf(caller, id);
    const controller = new AbortController();
    this.calls.set(key, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.calls.get(key) === controller) this.calls.delete(key);
      },
    };
  }

  /** Aborts the caller's call `id` (if still running) with `reason`; true when there was one. */
  cancel(caller: string, id: McpRequestId, reason: string | undefined): boolean {
    const controller = this.calls.get(keyOf(caller, id));
    if (!controller) return false;
    controller.abort(new McpCallCancelledError(reason));
    return true;
  }
}

function keyOf(caller: string, id: McpRequestId): string {
  return `${caller}\u0000${typeof id}:${String(id)}`;
}
