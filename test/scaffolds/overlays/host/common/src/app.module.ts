import { Module } from '@nestjs/common';
import { AppController } from './app.controller';
import { AppService } from './app.service';
import { ProbeController } from './probe/probe.controller';

@Module({
  imports: [],
  controllers: [AppController, ProbeController],
  providers: [AppService],
})
export class AppModule {}
