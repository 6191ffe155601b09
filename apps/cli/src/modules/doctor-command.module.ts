import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { DoctorCommand } from '../commands/doctor.command.js';
import { PlatformClientService } from '../deploy/platform-client.service.js';
import { DoctorService } from '../doctor/doctor.service.js';

/** `toolkit doctor`, the service that runs its checks and the deploy-client lookup it reuses. */
@Module({
  imports: [CliSharedModule],
  providers: [DoctorCommand, DoctorService, PlatformClientService],
})
export class DoctorCommandModule {}
