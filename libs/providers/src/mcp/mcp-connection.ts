import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '../llm/provider/abort.js';
import type { DefinedTool, ToolContext } from '../llm/tools/tool.js';
import { callFailure, classifyMcpFailure } from './mcp-call-error.js';
import { McpError } from './mcp.error.js';
import { mcpResultValue, type McpCallResult } from './mcp-result.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';
import type { McpServerState, McpServerStatus } from './mcp-server-status.js';
import { listMcpTools } from './list-mcp-tools.js';
import { createMcpTransport, type OpenedTransport } from './mcp-transport.js';
import { withDeadline } from './with-deadline.js';

/** How a connection behaves; see `McpToolsetOptions`. */
export interface McpConnectionOptions {
  /** Seconds for connecting, each list page and each call. */
  timeout: number;
  /** Largest tool result, in bytes of JSON. */
  maxResultBytes: number;
  /** Where `${NAME}` references are read. */
  env: NodeJS.ProcessEnv;
  /** Told of each problem: the server is down, a tool is skipped. */
  onProblem(error: McpError): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * One MCP server: connects (single flight), lists its tools (all pages), calls them within the
 * timeout and the caller's signal, refreshes them on `notifications/tools/list_changed`, and
 * reconnects in the background (with backoff) after the transport closed or never opened.
 */
export class McpConnection {
  private state: McpServerState = 'down';
  private client: Client | undefined;
  private opened: OpenedTransport | undefined;
  private pending: Promise<void> | undefined;
  private tools: DefinedTool[] = [];
  private skipped: string[] = [];
  private error: string | undefined;
  private protocolError: string | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempts = 0;
  private closed = false;
  private readonly timeoutMs: number;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {
    this.timeoutMs = (config.timeout ?? options.timeout) * 1000;
  }

  /** Connects and lists the tools; rejects with an {@link McpError} naming the server. */
  connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.pending ??= this.open().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** The server's tools as toolkit tools (the last listed while it is down). */
  currentTools(): DefinedTool[] {
    return this.tools;
  }

  /** Where it stands. */
  status(): McpServerStatus {
    return {
      name: this.name,
      transport: isStdioServer(this.config) ? 'stdio' : 'http',
      required: this.config.required ?? false,
      state: this.closed ? 'closed' : this.state,
      tools: this.tools.map((tool) => tool.name),
      skipped: [...this.skipped],
      ...(this.error === undefined ? {} : { error: this.error }),
      ...(this.opened?.pid() === undefined ? {} : { pid: this.opened.pid() }),
    };
  }

  /** Retries in the background until it connects (or is closed). */
  scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts++);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().catch(() => this.scheduleReconnect());
    }, delay);
    this.retry.unref();
  }

  /** Disconnects for good (stops the server process of a stdio server). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async open(): Promise<void> {
    if (this.closed) throw new McpError(this.name, 'is closed');
    this.state = 'connecting';
    this.protocolError = undefined;
    let client: Client | undefined;
    try {
      const sdk = await loadMcpSdk();
      this.opened = createMcpTransport(sdk, this.name, this.config, this.options.env);
      client = new sdk.client.Client({ name: 'toolkit', version: '1' }, { capabilities: {} });
      const own = client;
      client.onerror = (error) => {
        this.protocolError = errorMessage(error);
        // The HTTP event stream (server notifications) ended: start a new session.
        if (/Maximum reconnection attempts/.test(this.protocolError)) {
          this.drop(own, 'its event stream closed');
        }
      };
      client.onclose = () => this.lost(own, 'the connection closed');
      client.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, () => {
        this.refresh(own).catch((error: unknown) =>
          this.report(error, 'could not refresh its tools'),
        );
      });
      await client.connect(this.opened.transport, { timeout: this.timeoutMs });
      this.client = client;
      await this.refresh(client);
      // Closed while connecting: this client must not outlive close().
      if (this.closed) throw new McpError(this.name, 'is closed');
      this.state = 'connected';
      this.error = undefined;
      this.attempts = 0;
      clearTimeout(this.retry);
      this.retry = undefined;
    } catch (error) {
      this.client = undefined;
      await client?.close().catch(() => undefined);
      this.state = 'down';
      if (this.closed) throw error;
      throw this.report(error, 'is not reachable');
    }
  }

  private async refresh(client: Client): Promise<void> {
    const listed = await listMcpTools(client, this.name, this.timeoutMs, this.call);
    if (client !== this.client) return;
    const before = new Set(this.skipped);
    this.tools = listed.tools;
    this.skipped = listed.skipped.map((error) => error.message);
    for (const error of listed.skipped) {
      if (!before.has(error.message)) this.options.onProblem(error);
    }
  }

  private lost(client: Client, why: string): void {
    if (client !== this.client || this.closed) return;
    this.client = undefined;
    this.state = 'down';
    this.report(new McpError(this.name, `lost its connection (${why}); reconnecting`), '');
    this.scheduleReconnect();
  }

  private report(error: unknown, what: string): McpError {
    const wrapped =
      error instanceof McpError
        ? error
        : new McpError(this.name, `${what}: ${errorMessage(error)}${this.diagnostics()}`, {
            cause: error,
          });
    // Each outage is told once, not at every retry.
    if (wrapped.message !== this.error) this.options.onProblem(wrapped);
    this.error = wrapped.message;
    return wrapped;
  }

  /** Calls one tool within the timeout (reconnecting first when needed) and the caller's signal. */
  private readonly call = async (
    tool: string,
    args: Record<string, unknown>,
    { signal }: ToolContext,
  ): Promise<unknown> => {
    const deadline = Date.now() + this.timeoutMs;
    const sdk = await loadMcpSdk();
    for (let attempt = 0; ; attempt++) {
      const client = await this.connected(tool, deadline, signal);
      try {
        const remaining = Math.max(1, deadline - Date.now());
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: remaining,
        });
        return mcpResultValue(
          result as McpCallResult,
          this.name,
          tool,
          this.options.maxResultBytes,
        );
      } catch (error) {
        if (signal.aborted || error instanceof McpError) throw error;
        const failure = classifyMcpFailure(sdk, error);
        if (failure !== 'refused' && failure !== 'timeout') this.drop(client, errorMessage(error));
        if (failure === 'lost-before-sending' && attempt === 0 && Date.now() < deadline) continue;
        const seconds = this.timeoutMs / 1000;
        throw callFailure(
          sdk,
          { server: this.name, tool, seconds, failure, error },
          this.diagnostics(),
        );
      }
    }
  };

  private async connected(tool: string, deadline: number, signal: AbortSignal): Promise<Client> {
    if (this.client) return this.client;
    // A background attempt begun before the call may fail just as the server comes back.
    const joined = this.pending !== undefined;
    try {
      await this.connectBy(tool, deadline, signal);
    } catch (error) {
      if (!joined || signal.aborted || Date.now() >= deadline) throw error;
      await this.connectBy(tool, deadline, signal);
    }
    if (!this.client) throw new McpError(this.name, 'is not connected', { tool });
    return this.client;
  }

  private async connectBy(tool: string, deadline: number, signal: AbortSignal): Promise<void> {
    const seconds = this.timeoutMs / 1000;
    await withDeadline(
      this.connect(),
      deadline,
      signal,
      () => new McpError(this.name, `did not connect within ${seconds} s`, { tool }),
    ).catch((error: unknown) => {
      throw error instanceof McpError && error.tool === undefined
        ? new McpError(this.name, error.problem, { tool, cause: error })
        : error;
    });
  }

  /** What the server said besides answers: its last protocol error and stderr lines. */
  private diagnostics(): string {
    const tail = this.opened?.stderrTail();
    const protocol = this.protocolError ? ` (last protocol error: ${this.protocolError})` : '';
    return `${protocol}${tail ? ` (stderr: ${tail})` : ''}`;
  }

  private drop(client: Client, why: string): void {
    this.lost(client, why);
    void client.close().catch(() => undefined);
  }
}
