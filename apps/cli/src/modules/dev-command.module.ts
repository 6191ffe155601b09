import { Module } from '@nestjs/common';
import { CliSharedModule } from '../cli-shared.module.js';
import { DevCommand } from '../commands/dev.command.js';
import { ServeModule } from './serve.module.js';

/** `toolkit dev`, on the services that serve and reload the app. */
@Module({
  imports: [CliSharedModule, ServeModule],
  providers: [DevCommand],
})
export class DevCommandModule {}
