import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { DoctorCommand } from '../commands/doctor.command.js';
import { DoctorService } from '../doctor/doctor.service.js';

/** `toolkit doctor` and the service that runs its checks. */
@Module({ imports: [CliSharedModule], providers: [DoctorCommand, DoctorService] })
export class DoctorCommandModule {}
