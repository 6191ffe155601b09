import {
  Body,
  Controller,
  Delete,
  Get,
  Inject,
  Post,
  Res,
  UseGuards,
  type CanActivate,
  type Type,
} from '@nestjs/common';
import { platformOfResponse } from '../../http/platform/platform-of.js';
import { Session } from '../../session/session.decorator.js';
import { McpToolServer } from './mcp-tool-server.js';

/** What a stateless Streamable HTTP server answers a GET (no server-sent stream) or DELETE. */
const NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, POST only' },
  id: null,
};

/**
 * A controller serving MCP at `path` behind `guards` (and the app's global guards): POST carries
 * JSON-RPC (toolkit's body parsers read it, on Express and Fastify alike), GET and DELETE answer
 * 405 with `Allow: POST`. A class per module, since the path is the module's option.
 */
export function mcpServerController(
  path: string,
  guards: readonly (Type<CanActivate> | CanActivate)[],
): Type {
  @Controller(path)
  @UseGuards(...guards)
  class McpServerController {
    constructor(@Inject(McpToolServer) private readonly server: McpToolServer) {}

    @Post()
    async post(
      @Session() identity: string,
      @Body() body: unknown,
      @Res() reply: object,
    ): Promise<void> {
      const platform = platformOfResponse(reply);
      const req = platform.rawRequest(platform.requestOf(reply));
      const res = platform.takeOver(reply);
      await this.server.handle({ req, res, body, identity });
    }

    @Get()
    get(@Res() reply: object): void {
      notAllowed(reply);
    }

    @Delete()
    delete(@Res() reply: object): void {
      notAllowed(reply);
    }
  }
  return McpServerController;
}

function notAllowed(reply: object): void {
  const platform = platformOfResponse(reply);
  platform.setHeader(reply, 'Allow', 'POST');
  platform.sendJson(reply, 405, NOT_ALLOWED);
}
