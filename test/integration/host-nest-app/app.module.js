import { Module } from '@nestjs/common';
import { ToolkitModule } from 'toolkit';
import { AssistantController } from './assistant.controller.js';
import { OwnController } from './own.controller.js';

/** An existing Nest application's root module that adds toolkit with its defaults. */
export class AppModule {}

Reflect.decorate(
  [
    Module({
      imports: [ToolkitModule.forRoot()],
      controllers: [OwnController, AssistantController],
    }),
  ],
  AppModule,
);
