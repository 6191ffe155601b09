// The cold-start baseline of `toolkit start`: a bare Nest app on platform-express, compiled to
// JavaScript ahead of time, answering GET /health (what a generated app's health check answers).
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller()
class HealthController {
  @Get('/health')
  health(): { status: string } {
    return { status: 'healthy' };
  }
}

@Module({ controllers: [HealthController] })
class BareModule {}

const app = await NestFactory.create(BareModule, { logger: ['error', 'warn'] });
await app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
