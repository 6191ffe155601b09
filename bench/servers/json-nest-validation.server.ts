// The baseline for a declared, checked parameter: bare NestJS with a global `ValidationPipe` and
// a class-validator DTO, the idiomatic Nest way to type-check a body.
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { announce } from '../support/announce.js';
import { EchoDto } from './echo.dto.js';

@Controller()
class ValidatedEchoController {
  @Post('/echo')
  @HttpCode(200)
  echo(@Body() dto: EchoDto): { echo: string } {
    return { echo: dto.message };
  }
}

@Module({ controllers: [ValidatedEchoController] })
class EchoModule {}

const app = await NestFactory.create(EchoModule, new ExpressAdapter(), { logger: false });
app.useGlobalPipes(new ValidationPipe());
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
