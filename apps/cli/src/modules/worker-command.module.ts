import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { WorkerCommand } from '../commands/worker.command.js';
import { WorkerService } from '../ingest/worker.service.js';

/** `toolkit worker` and the service that runs an ingestion worker. */
@Module({ imports: [CliSharedModule], providers: [WorkerCommand, WorkerService] })
export class WorkerCommandModule {}
