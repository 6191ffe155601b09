// Baseline: the same route and handler in bare NestJS under `@nestjs/cache-manager`'s
// `CacheInterceptor`, the documented Nest way: an in-memory store (cache-manager's default Keyv
// Map), or Redis through a Keyv Redis store (CACHE_BACKEND=redis). GET /runs as on toolkit's.
import 'reflect-metadata';
import { Controller, Get, Module, Query, UseInterceptors } from '@nestjs/common';
import { CacheInterceptor, CacheModule, CacheTTL } from '@nestjs/cache-manager';
import { createKeyv } from '@keyv/redis';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { announce } from '../support/announce.js';
import { summarize, summaryRuns } from './summary-handler.js';

/** cache-manager counts time-to-live in milliseconds. */
const TTL_MS = 600_000;

@Controller()
class SummaryController {
  @Get('/cached')
  @UseInterceptors(CacheInterceptor)
  @CacheTTL(TTL_MS)
  cached(@Query('text') text: string): { length: number; spins: number } {
    return summarize(text);
  }

  @Get('/runs')
  runs(): { runs: number } {
    return summaryRuns();
  }
}

const redis = process.env.CACHE_BACKEND === 'redis';
const stores = redis
  ? [
      createKeyv(process.env.CACHE_REDIS_URL ?? 'redis://127.0.0.1:6379', {
        namespace: process.env.CACHE_PREFIX ?? 'nest-bench:cache',
      }),
    ]
  : undefined;

@Module({
  imports: [CacheModule.register({ ttl: TTL_MS, ...(stores ? { stores } : {}) })],
  controllers: [SummaryController],
})
class SummaryModule {}

const app = await NestFactory.create(SummaryModule, new ExpressAdapter(), { logger: false });
await app.listen(0, '127.0.0.1');
announce(app.getHttpServer() as Server, () => app.close());
