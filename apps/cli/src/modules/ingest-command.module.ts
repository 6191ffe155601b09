import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { IngestCommand } from '../commands/ingest.command.js';
import { IngestService } from '../ingest/ingest.service.js';

/** `toolkit ingest` and the service that queues or indexes a folder. */
@Module({ imports: [CliSharedModule], providers: [IngestCommand, IngestService] })
export class IngestCommandModule {}
