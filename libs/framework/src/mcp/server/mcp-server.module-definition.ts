import { ConfigurableModuleBuilder, type CanActivate, type Type } from '@nestjs/common';
import { DEFAULT_MCP_PATH, MCP_SERVER_OPTIONS } from './mcp-server.constants.js';
import { mcpServerController } from './mcp-server.controller.js';

/** Options of `McpServerModule.forRoot()` / `forRootAsync()`, all optional. */
export interface McpServerModuleOptions {
  /** Server name announced to MCP clients (`initialize`). @default the app's name (`APP_INFO`) */
  name?: string;
  /** Server version announced to MCP clients. @default the app's version (`APP_INFO`) */
  version?: string;
  /**
   * Names of the `@Tool()` methods to serve; an unknown name stops the app at start-up, naming
   * the known ones. @default every `@Tool()` method (`ToolRegistry.decorated()`)
   */
  tools?: readonly string[];
  /**
   * Largest tool result sent back, in bytes of its text; a larger one becomes an `isError`
   * result saying so (the model cannot read megabytes anyway). The request body is limited by
   * the app's body limit (`limits.max_body_size`).
   * @default 1048576 (1 MiB)
   */
  maxResultBytes?: number;
}

/**
 * Options of `forRoot()` / `forRootAsync()` that decide the route itself, so they are given in
 * code beside `useFactory` (a factory's result cannot change the routes Nest registers).
 *
 * @example
 * McpServerModule.forRootAsync({ path: '/tools/mcp', guards: [ApiKeyGuard], useFactory: () => ({}) })
 */
export interface McpServerModuleExtras {
  /** Path of the Streamable HTTP endpoint. @default '/mcp' */
  path?: string;
  /**
   * Guards of the endpoint, on top of the app's global ones (`APP_GUARD`): a guard that refuses
   * answers its error (e.g. 401) and no tool runs.
   * @default []
   */
  guards?: (Type<CanActivate> | CanActivate)[];
}

export const {
  ConfigurableModuleClass: McpServerModuleBase,
  OPTIONS_TYPE: MCP_SERVER_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_SERVER_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpServerModuleOptions>({
  optionsInjectionToken: MCP_SERVER_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<McpServerModuleExtras>(
    { path: DEFAULT_MCP_PATH, guards: [] },
    (definition, extras) => ({
      ...definition,
      controllers: [
        ...(definition.controllers ?? []),
        mcpServerController(extras.path ?? DEFAULT_MCP_PATH, extras.guards ?? []),
      ],
    }),
  )
  .build();
