// The baseline: POST /echo in a bare NestJS app on the same platform-express, `@Body()` binding.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { announce } from '../support/announce.js';
import { PlainEchoController } from './plain-echo.controller.js';

@Module({ controllers: [PlainEchoController] })
class EchoModule {}

const app = await NestFactory.create(EchoModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
