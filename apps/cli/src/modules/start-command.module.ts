import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { StartCommand } from '../commands/start.command.js';
import { AppServerService } from '../dev/app-server.service.js';
import { AppSupervisorService } from '../dev/app-supervisor.service.js';
import { InProcessServerService } from '../dev/in-process-server.service.js';

/** `toolkit start` and the services that serve the app. */
@Module({
  imports: [CliSharedModule],
  providers: [StartCommand, AppServerService, AppSupervisorService, InProcessServerService],
})
export class StartCommandModule {}
