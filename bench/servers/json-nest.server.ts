// The baseline: POST /echo in a bare NestJS app on the same platform-express, `@Body()` binding.
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { announce } from '../support/announce.js';

@Controller()
class EchoController {
  @Post('/echo')
  @HttpCode(200)
  echo(@Body('message') message: string): { echo: string } {
    return { echo: message };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

const app = await NestFactory.create(EchoModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
