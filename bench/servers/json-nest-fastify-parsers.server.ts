// Context on Fastify: the bare Nest baseline with toolkit's body parsers installed (Express's
// body-parser run on Fastify's raw request, as `App` does for identical 400/413/415 answers):
// what body parsing alone costs against Fastify's own JSON parser.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { installBodyParsers } from 'toolkit';
import { announce } from '../support/announce.js';
import { PlainEchoController } from './plain-echo.controller.js';

@Module({ controllers: [PlainEchoController] })
class EchoModule {}

const app = await NestFactory.create<NestFastifyApplication>(EchoModule, new FastifyAdapter(), {
  logger: false,
  bodyParser: false,
});
installBodyParsers(app, 1024 * 1024);
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer(), () => app.close());
