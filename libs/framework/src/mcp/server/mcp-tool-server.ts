import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DefinedTool } from '../../../../providers/src/index.js';
import type { AppInfo } from '../../health/app-info.js';
import { requestSignal } from '../../routing/request-signal.js';
import { APP_INFO } from '../../toolkit.constants.js';
import { ToolRegistry } from '../../tools/tool.registry.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { McpCancellations, type McpRequestId } from './mcp-cancellations.js';
import { mcpCallerKey } from './mcp-caller.js';
import { DEFAULT_MAX_RESULT_BYTES, MCP_SERVER_OPTIONS } from './mcp-server.constants.js';
import type { McpServerModuleOptions } from './mcp-server.module-definition.js';
import { createToolServer, type CallWatch } from './mcp-tool-handlers.js';

/** One MCP POST: the Node request and response, its parsed body, and who sent it. */
export interface McpExchange {
  req: IncomingMessage;
  res: ServerResponse;
  body: unknown;
  /** `@Session()`'s value: `user:<id>` or `session:<id>`. */
  identity: string;
}

/**
 * Serves the app's `@Tool()` methods to MCP clients: each POST gets a fresh SDK server on a
 * stateless Streamable HTTP transport (no session to keep, so any instance can answer it).
 * `tools/call` validates the arguments with the tool's schema and runs it with
 * `context: { session }` (the caller's identity, as `@Session()` gives it) and a signal that
 * aborts when the client cancels the call (`notifications/cancelled`) or goes away.
 */
@Injectable()
export class McpToolServer implements OnApplicationBootstrap {
  private tools?: ReadonlyMap<string, DefinedTool>;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly cancellations: McpCancellations,
    @Inject(APP_INFO) private readonly info: AppInfo,
    @Inject(MCP_SERVER_OPTIONS) private readonly options: McpServerModuleOptions,
  ) {}

  /** Resolves the served tools at start-up, so an unknown name in `tools` stops the app. */
  onApplicationBootstrap(): void {
    this.served();
  }

  /** Answers one MCP POST on the Node response. */
  async handle({ req, res, body, identity }: McpExchange): Promise<void> {
    const sdk = await loadMcpSdk();
    const caller = mcpCallerKey(identity, req);
    // A stateless server gets the cancellation in a POST of its own: it names a call that
    // another request (maybe still running here) carries.
    if (caller !== undefined) this.cancelNamed(body, caller);
    const closed = requestSignal(req, res);
    const server = createToolServer(sdk, {
      name: this.options.name ?? this.info.name,
      version: this.options.version ?? this.info.version,
      tools: this.served(),
      maxResultBytes: this.options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
      context: { session: identity },
      watch: (id) => this.watch(id, caller, closed, () => server.close()),
    });
    const transport = new sdk.http.StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.once('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** A call ends when the connection closes, or when its caller cancels it in another POST. */
  private watch(
    id: McpRequestId,
    caller: string | undefined,
    closed: AbortSignal,
    abandon: () => Promise<void>,
  ): CallWatch {
    if (caller === undefined) return { signal: closed, settled: () => Promise.resolve() };
    const tracked = this.cancellations.track(caller, id);
    return {
      signal: AbortSignal.any([closed, tracked.signal]),
      settled: async () => {
        tracked.release();
        // Cancelled in a POST this request's SDK server never saw: the exchange ends here
        // unanswered, as the spec asks (closing the SDK server drops the result).
        if (tracked.signal.aborted) await abandon();
      },
    };
  }

  private cancelNamed(body: unknown, caller: string): void {
    for (const message of Array.isArray(body) ? (body as unknown[]) : [body]) {
      const { method, params } = (message ?? {}) as { method?: unknown; params?: unknown };
      if (method !== 'notifications/cancelled' || typeof params !== 'object' || !params) continue;
      const { requestId, reason } = params as { requestId?: unknown; reason?: unknown };
      if (typeof requestId !== 'string' && typeof requestId !== 'number') continue;
      this.cancellations.cancel(caller, requestId, typeof reason === 'string' ? reason : undefined);
    }
  }

  private served(): ReadonlyMap<string, DefinedTool> {
    if (this.tools) return this.tools;
    // Only the app's own `@Tool()` methods: other MCP servers' tools are not served again.
    const list = this.options.tools
      ? this.registry.pick(...this.options.tools)
      : this.registry.decorated();
    this.tools = new Map(list.map((tool) => [tool.name, tool]));
    return this.tools;
  }
}
