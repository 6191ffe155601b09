import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { DefinedTool, McpServerStatus } from '../../../../providers/src/index.js';
import { connectMcpServers, type McpToolset } from '../../../../providers/src/index.js';
import { environmentOf } from '../../config/config-environment.js';
import type { ToolkitConfig } from '../../config/toolkit-config.interface.js';
import { TOOLKIT_CONFIG } from '../../toolkit.constants.js';

/**
 * The app's connections to the MCP servers of `mcp.servers`, opened while the app starts (never
 * when none is configured, so the MCP SDK is not even loaded). A server that cannot be reached
 * is logged as a warning naming it and retried in the background, and the app starts; one
 * marked `required` stops start-up with an error naming it. Closed when the app shuts down.
 * Its tools reach the model through `ToolRegistry` (`all()`, `pick()`).
 *
 * @example
 * constructor(private readonly mcp: McpClient) {}
 * health() {
 *   return this.mcp.status().map((s) => `${s.name}: ${s.state}`);
 * }
 */
@Injectable()
export class McpClient implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('toolkit:mcp');
  private toolset: McpToolset | undefined;

  constructor(@Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig) {}

  /** Connects to every configured server; rejects (stopping start-up) when a required one is down. */
  async onModuleInit(): Promise<void> {
    const { servers, timeout, max_result_size } = this.config.mcp;
    if (Object.keys(servers).length === 0) return;
    this.toolset = await connectMcpServers(servers, {
      timeout,
      maxResultBytes: max_result_size,
      env: environmentOf(this.config),
      onProblem: (error) => this.logger.warn(error.message),
    });
  }

  /** Every configured server's tools, named `<server>__<tool>`; `[]` without `mcp.servers`. */
  tools(): DefinedTool[] {
    return this.toolset?.tools() ?? [];
  }

  /** Where each configured server stands (connected, down with why, its tools). */
  status(): McpServerStatus[] {
    return this.toolset?.status() ?? [];
  }

  /** Disconnects, stopping the stdio servers it started. */
  async onApplicationShutdown(): Promise<void> {
    const toolset = this.toolset;
    this.toolset = undefined;
    await toolset?.close();
  }
}
