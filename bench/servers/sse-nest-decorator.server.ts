// Baseline: Nest's own SSE support, `@Sse()` returning an Observable<MessageEvent> of the same
// 200 chunks. `@Sse()` registers a GET route.
import 'reflect-metadata';
import { Controller, Module, Sse, type MessageEvent } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { from, map, type Observable } from 'rxjs';
import { announce } from '../support/announce.js';
import { produce } from './sse-source.js';

@Controller()
class EventsController {
  @Sse('/events')
  events(): Observable<MessageEvent> {
    return from(produce()).pipe(map((data) => ({ data })));
  }
}

@Module({ controllers: [EventsController] })
class EventsModule {}

const app = await NestFactory.create(EventsModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
