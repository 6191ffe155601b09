// Context: the bare NestJS baseline plus ONE global interceptor that does nothing
// (`next.handle()`), to show what Nest's interceptor pipeline itself costs per request.
import 'reflect-metadata';
import {
  Body,
  Controller,
  HttpCode,
  Injectable,
  Module,
  Post,
  type CallHandler,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { Observable } from 'rxjs';
import { announce } from '../support/announce.js';

@Injectable()
class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Controller()
class EchoController {
  @Post('/echo')
  @HttpCode(200)
  echo(@Body('message') message: string): { echo: string } {
    return { echo: message };
  }
}

@Module({
  controllers: [EchoController],
  providers: [{ provide: APP_INTERCEPTOR, useClass: PassThroughInterceptor }],
})
class EchoModule {}

const app = await NestFactory.create(EchoModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
