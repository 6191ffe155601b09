// Context: the bare NestJS baseline plus ONE global interceptor that does nothing
// (`next.handle()`), to show what Nest's interceptor pipeline itself costs per request.
import 'reflect-metadata';
import { Injectable, Module, type CallHandler, type NestInterceptor } from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { Observable } from 'rxjs';
import { announce } from '../support/announce.js';
import { PlainEchoController } from './plain-echo.controller.js';

@Injectable()
class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Module({
  controllers: [PlainEchoController],
  providers: [{ provide: APP_INTERCEPTOR, useClass: PassThroughInterceptor }],
})
class EchoModule {}

const app = await NestFactory.create(EchoModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
