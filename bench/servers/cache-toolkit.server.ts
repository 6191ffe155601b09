// POST /uncached (2 ms of CPU work per request) and POST /cached (the same handler under
// `@Cache`), on the backend named by CACHE_BACKEND (memory | redis).
import { Controller } from '@nestjs/common';
import { App, Arg, Cache, Route } from 'toolkit';
import { announce } from '../support/announce.js';

/** Keeps the CPU busy for `ms` milliseconds, like rendering or parsing would. */
function work(ms: number): number {
  const end = performance.now() + ms;
  let spins = 0;
  while (performance.now() < end) spins += 1;
  return spins;
}

@Controller()
class WorkController {
  @Route('/uncached', { methods: ['POST'] })
  uncached(@Arg('text') text: string): { length: number; spins: number } {
    return { length: text.length, spins: work(2) };
  }

  @Route('/cached', { methods: ['POST'] })
  @Cache({ ttl: 600 })
  cached(@Arg('text') text: string): { length: number; spins: number } {
    return { length: text.length, spins: work(2) };
  }
}

const backend = process.env.CACHE_BACKEND === 'redis' ? 'redis' : 'memory';
const app = new App({
  controllers: [WorkController],
  logger: false,
  config: {
    cache: {
      backend,
      redis_url: process.env.CACHE_REDIS_URL ?? 'redis://127.0.0.1:6379',
      key_prefix: process.env.CACHE_PREFIX ?? 'toolkit-bench:cache:',
    },
  },
});
announce(await app.run(), () => app.close());
