import { Module } from '@nestjs/common';
import { ToolkitModule } from 'toolkit';
import { AppController } from './app.controller';
import { AppService } from './app.service';
import { ChatController } from './chat/chat.controller';
import { ProbeController } from './probe/probe.controller';

@Module({
  imports: [ToolkitModule.forRoot()],
  controllers: [AppController, ProbeController, ChatController],
  providers: [AppService],
})
export class AppModule {}
