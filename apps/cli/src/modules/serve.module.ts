import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { AppServerService } from '../dev/app-server.service.js';
import { AppSupervisorService } from '../dev/app-supervisor.service.js';
import { InProcessServerService } from '../dev/in-process-server.service.js';

/**
 * What serves a project's app: the checks and banner ({@link AppServerService}), the reloading
 * child process of `toolkit dev` and the in-process server of `toolkit start`.
 */
@Module({
  imports: [CliSharedModule],
  providers: [AppServerService, AppSupervisorService, InProcessServerService],
  exports: [AppServerService],
})
export class ServeModule {}
