import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { McpCommand } from '../commands/mcp.command.js';
import { McpStdioService } from '../mcp/mcp-stdio.service.js';

/** `toolkit mcp` and the service that serves the app's tools over stdio. */
@Module({ imports: [CliSharedModule], providers: [McpCommand, McpStdioService] })
export class McpCommandModule {}
