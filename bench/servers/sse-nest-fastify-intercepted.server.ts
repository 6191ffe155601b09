// Context on Fastify: the bare Nest write loop of `sse-nest-fastify-write` behind one no-op
// method interceptor. Any interceptor puts a Nest route on its rxjs pipeline; `@Stream()` is one.
import 'reflect-metadata';
import {
  Controller,
  Injectable,
  Module,
  Post,
  Res,
  UseInterceptors,
  type CallHandler,
  type NestInterceptor,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import { announce } from '../support/announce.js';
import { writeEvents } from './sse-fastify-write.js';

@Injectable()
class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Controller()
class EventsController {
  @Post('/events')
  @UseInterceptors(PassThroughInterceptor)
  events(@Res() reply: FastifyReply): Promise<void> {
    return writeEvents(reply);
  }
}

@Module({ controllers: [EventsController], providers: [PassThroughInterceptor] })
class EventsModule {}

const app = await NestFactory.create<NestFastifyApplication>(EventsModule, new FastifyAdapter(), {
  logger: false,
});
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer(), () => app.close());
