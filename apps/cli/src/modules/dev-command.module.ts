import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { DevCommand } from '../commands/dev.command.js';
import { AppServerService } from '../dev/app-server.service.js';
import { AppSupervisorService } from '../dev/app-supervisor.service.js';
import { InProcessServerService } from '../dev/in-process-server.service.js';

/** `toolkit dev` and the services that serve and reload the app. */
@Module({
  imports: [CliSharedModule],
  providers: [DevCommand, AppServerService, AppSupervisorService, InProcessServerService],
})
export class DevCommandModule {}
