import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { DocsCommand } from '../commands/docs.command.js';
import { DocsService } from '../docs/docs.service.js';

/** `toolkit docs` and the service that runs VitePress. */
@Module({ imports: [CliSharedModule], providers: [DocsCommand, DocsService] })
export class DocsCommandModule {}
