import { Injectable, Logger, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { DefinedTool as ToolkitTool } from '../../../providers/src/index.js';
import type { ToolContext } from '../../../providers/src/internal.js';
import { ConfigError, defineTool } from '../../../providers/src/internal.js';
import { McpClient } from '../mcp/client/mcp-client.js';
import { TOOL_METADATA } from './tool.decorator.js';
import type { ToolOptions } from './tool.decorator.js';

type Method = (args: unknown, context: ToolContext) => unknown;

/**
 * The `@Tool()` methods of every provider of the application, collected through Nest's DI
 * (`DiscoveryService` and `MetadataScanner`) at start-up (a schema that is not valid JSON
 * Schema stops the app naming the method), each bound to its provider instance. Pass them to `llm.chat(message, { tools: registry.all() })`.
 *
 * @example
 * constructor(private readonly llm: LLM, private readonly tools: ToolRegistry) {}
 * chat(message: string) {
 *   return this.llm.chat(message, { tools: this.tools.pick('add', 'now') });
 * }
 */
@Injectable()
export class ToolRegistry implements OnApplicationBootstrap {
  private tools: Map<string, ToolkitTool> | undefined;
  private readonly places = new Map<string, string>();
  private readonly warned = new Set<string>();
  private readonly logger = new Logger('toolkit:mcp');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Optional() private readonly mcp?: McpClient,
  ) {}

  /**
   * Collects the tools at start-up, so a bad `@Tool()` schema, or an MCP tool named like a
   * `@Tool()`, stops the app from starting.
   */
  async onApplicationBootstrap(): Promise<void> {
    this.collect();
    const clash = this.mcpTools().find((tool) => this.places.has(tool.name));
    if (!clash) return;
    // A failed start runs no shutdown hook: stop the servers' processes now.
    await this.mcp?.onApplicationShutdown();
    throw this.collision(clash.name);
  }

  /** Every `@Tool()` method, in discovery order, then the tools of the MCP servers (`mcp.servers`). */
  all(): ToolkitTool[] {
    return [...this.decorated(), ...this.usableMcpTools()];
  }

  /** Only the `@Tool()` methods, in discovery order (what the app itself provides, e.g. to serve over MCP). */
  decorated(): ToolkitTool[] {
    return [...this.collect().values()];
  }

  /** The named tools (`@Tool()` or `<server>__<tool>`), in the order given; an unknown name throws naming the known ones. */
  pick(...names: string[]): ToolkitTool[] {
    const tools = new Map(this.all().map((tool) => [tool.name, tool]));
    return names.map((name) => {
      const tool = tools.get(name);
      if (!tool) {
        const known = [...tools.keys()].join(', ') || 'none';
        throw new ConfigError(
          name,
          `is not a @Tool() or MCP tool (tools: ${known})`,
          'ToolRegistry.pick()',
        );
      }
      return tool;
    });
  }

  private mcpTools(): ToolkitTool[] {
    return this.mcp?.tools() ?? [];
  }

  /** MCP tools, less any a server added later under a `@Tool()`'s name (logged once). */
  private usableMcpTools(): ToolkitTool[] {
    const decorated = this.collect();
    return this.mcpTools().filter((tool) => {
      if (!decorated.has(tool.name)) return true;
      if (!this.warned.has(tool.name)) {
        this.warned.add(tool.name);
        this.logger.warn(`${this.collision(tool.name).message}; the MCP tool is left out`);
      }
      return false;
    });
  }

  private collision(name: string): ConfigError {
    const server = name.split('__')[0];
    return new ConfigError(
      'name',
      `"${name}" is both ${this.places.get(name) ?? 'a @Tool()'} and a tool of MCP server "${server}"`,
      'ToolRegistry',
    );
  }

  private collect(): Map<string, ToolkitTool> {
    if (this.tools) return this.tools;
    const tools = new Map<string, ToolkitTool>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object | null;
      if (!prototype) continue;
      for (const key of this.scanner.getAllMethodNames(prototype)) {
        const method = (instance as Record<string, unknown>)[key] as Method;
        const options = this.reflector.get<ToolOptions | undefined>(TOOL_METADATA, method);
        if (!options) continue;
        const name = options.name ?? key;
        const where = `@Tool() ${wrapper.name}.${key}`;
        if (tools.has(name)) throw new ConfigError('name', `"${name}" is used twice`, where);
        this.places.set(name, where);
        try {
          tools.set(
            name,
            defineTool({
              name,
              description: options.description,
              parameters: options.parameters,
              execute: (args, context) => method.call(instance, args, context),
            }),
          );
        } catch (error) {
          if (error instanceof ConfigError) {
            throw new ConfigError(error.key, error.problem, where);
          }
          throw error;
        }
      }
    }
    this.tools = tools;
    return tools;
  }
}
