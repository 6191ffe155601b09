// Baseline on Fastify: bare NestJS writing the same 200 SSE events straight to Fastify's raw
// Node response (the reply hijacked, as a hand-written Nest-Fastify stream does).
import 'reflect-metadata';
import { Controller, Module, Post, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { announce } from '../support/announce.js';
import { produce } from './sse-source.js';

@Controller()
class EventsController {
  @Post('/events')
  async events(@Res() reply: FastifyReply): Promise<void> {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    for await (const chunk of produce()) res.write(`event: message\ndata: ${chunk}\n\n`);
    res.end();
  }
}

@Module({ controllers: [EventsController] })
class EventsModule {}

const app = await NestFactory.create<NestFastifyApplication>(EventsModule, new FastifyAdapter(), {
  logger: false,
});
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer(), () => app.close());
