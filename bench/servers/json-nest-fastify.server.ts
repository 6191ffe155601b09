// The baseline on Fastify: POST /echo in a bare NestJS app on @nestjs/platform-fastify, the same
// `@Body()` controller as the Express baseline.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { announce } from '../support/announce.js';
import { PlainEchoController } from './plain-echo.controller.js';

@Module({ controllers: [PlainEchoController] })
class EchoModule {}

const app = await NestFactory.create<NestFastifyApplication>(EchoModule, new FastifyAdapter(), {
  logger: false,
});
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer(), () => app.close());
