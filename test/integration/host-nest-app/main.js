import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

// Booted as any Nest application is; the port (0: any free one) is announced for the test.
const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(0, '127.0.0.1');
console.log(`listening on ${await app.getUrl()}`);
