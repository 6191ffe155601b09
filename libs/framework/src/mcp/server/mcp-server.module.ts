import { Module, type DynamicModule } from '@nestjs/common';
import { McpCancellations } from './mcp-cancellations.js';
import {
  MCP_SERVER_ASYNC_OPTIONS_TYPE,
  MCP_SERVER_OPTIONS_TYPE,
  McpServerModuleBase,
  type McpServerModuleOptions,
} from './mcp-server.module-definition.js';
import { McpToolServer } from './mcp-tool-server.js';

/**
 * Serves the app's `@Tool()` methods to MCP clients over Streamable HTTP (stateless: a fresh
 * server per POST) at `path` (default `/mcp`). Each tool gets its validated arguments and the
 * usual `{ signal, callId, context }`, where `context.session` is the caller's identity as
 * `@Session()` gives it (`user:<id>` behind an authentication guard, else `session:<id>` of the
 * request's session cookie) and `signal` aborts when the client cancels the call or disconnects.
 * The app's global guards and the module's `guards` protect the endpoint: a refused request
 * gets the guard's error (401, ...) and runs no tool. Needs `@modelcontextprotocol/sdk`
 * (loaded on the first MCP request) and `ToolkitModule` (which `App` imports).
 *
 * @example
 * const app = new App({
 *   providers: [MathTools],
 *   imports: [McpServerModule.forRoot({ path: '/mcp', tools: ['add'] })],
 * });
 */
@Module({ providers: [McpToolServer, McpCancellations] })
export class McpServerModule extends McpServerModuleBase {
  /** The MCP endpoint with options given in code (all optional). */
  static override forRoot(options: typeof MCP_SERVER_OPTIONS_TYPE = {}): DynamicModule {
    return super.forRoot(options);
  }

  /**
   * The MCP endpoint with options resolved by DI (`useFactory` + `inject`, `useClass` or
   * `useExisting`); `path` and `guards` are given here, beside the factory.
   */
  static override forRootAsync(options: typeof MCP_SERVER_ASYNC_OPTIONS_TYPE = {}): DynamicModule {
    const resolved =
      options.useFactory || options.useClass || options.useExisting
        ? options
        : { ...options, useFactory: (): McpServerModuleOptions => ({}) };
    return super.forRootAsync(resolved);
  }
}
