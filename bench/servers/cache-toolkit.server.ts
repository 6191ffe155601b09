// GET /cached?text=… under `@Cache` on the backend named by CACHE_BACKEND (memory | redis), and
// GET /runs: how often the handler really ran.
import { Controller } from '@nestjs/common';
import { App, Arg, Cache, Route } from 'toolkit';
import { announce } from '../support/announce.js';
import { summarize, summaryRuns } from './summary-handler.js';

@Controller()
class SummaryController {
  @Route('/cached')
  @Cache({ ttl: 600 })
  cached(@Arg('text') text: string): { length: number; spins: number } {
    return summarize(text);
  }

  @Route('/runs')
  runs(): { runs: number } {
    return summaryRuns();
  }
}

const backend = process.env.CACHE_BACKEND === 'redis' ? 'redis' : 'memory';
const app = new App({
  controllers: [SummaryController],
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
