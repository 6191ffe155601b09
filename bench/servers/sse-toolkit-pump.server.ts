// Decomposition of the SSE row: toolkit's SSE pump and writer (the code behind `@Stream()`)
// driven from a bare Nest `@Res()` handler, without the interceptor Nest runs `@Stream()` through.
// The gap between this and `@Stream()` is what that interceptor pipeline costs in the same run.
import 'reflect-metadata';
import { Controller, Module, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import type { Server } from 'node:http';
import { SsePump } from '../../libs/framework/src/sse/sse-pump.js';
import { announce } from '../support/announce.js';
import { produce } from './sse-source.js';

@Controller()
class EventsController {
  @Post('/events')
  async events(@Res() res: Response): Promise<void> {
    const emissions = (async function* () {
      yield produce();
    })();
    await new SsePump(emissions, res, {
      heartbeatMs: 15_000,
      maxPendingBytes: 4 * 1024 * 1024,
      onOverflow: () => undefined,
      describeError: () => 'Internal Server Error',
    }).run();
  }
}

@Module({ controllers: [EventsController] })
class EventsModule {}

const app = await NestFactory.create(EventsModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
