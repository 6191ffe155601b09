import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { TestCommand } from '../commands/test.command.js';
import { JestRunnerService } from '../testing/jest-runner.service.js';

/** `toolkit test` and the service that runs the project's jest. */
@Module({ imports: [CliSharedModule], providers: [TestCommand, JestRunnerService] })
export class TestCommandModule {}
