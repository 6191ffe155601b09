// Baseline on Fastify: bare NestJS writing the same 200 SSE events straight to Fastify's raw
// Node response (the reply hijacked, as a hand-written Nest-Fastify stream does).
import 'reflect-metadata';
import { Controller, Module, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { announce } from '../support/announce.js';
import { writeEvents } from './sse-fastify-write.js';

@Controller()
class EventsController {
  @Post('/events')
  events(@Res() reply: FastifyReply): Promise<void> {
    return writeEvents(reply);
  }
}

@Module({ controllers: [EventsController] })
class EventsModule {}

const app = await NestFactory.create<NestFastifyApplication>(EventsModule, new FastifyAdapter(), {
  logger: false,
});
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer(), () => app.close());
