import type { BenchSettings } from '../support/settings.js';
import { deleteKeys } from '../support/cleanup.js';
import { drive, driveServer, probe, type RequestSpec } from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import type { ServerProcess } from '../support/server-process.js';

const TEXT = 'Summarise the quarterly report in three sentences.';
/** GET, because `@nestjs/cache-manager`'s `CacheInterceptor` caches GET requests only. */
const CACHED: RequestSpec = { path: `/cached?text=${encodeURIComponent(TEXT)}`, method: 'GET' };
const RUNS: RequestSpec = { path: '/runs', method: 'GET' };

const BACKEND_NAME = { memory: 'in memory', redis: 'Redis' } as const;

/** Primes the cache with one MISS and checks the next identical request is a HIT. */
async function prime(server: ServerProcess): Promise<void> {
  await probe(server.url, CACHED);
  const hit = await probe(server.url, CACHED);
  if (hit.status !== 200 || hit.headers['x-cache'] !== 'HIT') {
    throw new Error(`${server.name}: second identical request was not a HIT (${hit.status})`);
  }
}

/** Fails unless the handler ran exactly once (the priming MISS): every measured request hit. */
async function checkAllHits(server: ServerProcess): Promise<void> {
  const { runs } = JSON.parse((await probe(server.url, RUNS)).body) as { runs: number };
  if (runs !== 1) throw new Error(`${server.name}: the handler ran ${runs} times, not once`);
}

/**
 * `@Cache` HIT vs `@nestjs/cache-manager`'s `CacheInterceptor` HIT on the same route and
 * handler: in memory on both sides, then Redis on both sides (ioredis for toolkit, the Keyv
 * Redis store for cache-manager).
 */
export async function cacheSuite(settings: BenchSettings): Promise<Row[]> {
  const rows: Row[] = [];
  for (const backend of ['memory', 'redis'] as const) {
    log(`cache HITs on the ${backend} backend`);
    const prefix = `toolkit-bench:${process.pid}:${backend}:`;
    const env = (side: string): Record<string, string> => ({
      CACHE_BACKEND: backend,
      CACHE_REDIS_URL: settings.redisUrl,
      CACHE_PREFIX: `${prefix}${side}`,
    });
    try {
      const values = await withServers(
        {
          toolkit: { script: 'servers/cache-toolkit.server.js', env: env('toolkit:') },
          nest: { script: 'servers/cache-nest.server.js', env: env('nest') },
        },
        async (servers) => {
          for (const server of Object.values(servers)) {
            await prime(server);
            await drive(server.url, CACHED, settings.warmup, settings.connections);
          }
          const loads = await interleave(['toolkit', 'nest'] as const, settings.rounds, (key) =>
            driveServer(servers[key], CACHED, settings.duration, settings.connections),
          );
          for (const server of Object.values(servers)) await checkAllHits(server);
          return loads;
        },
      );
      rows.push({
        id: `cache-${backend}`,
        name: `\`@Cache\` HIT vs \`@nestjs/cache-manager\` HIT (${BACKEND_NAME[backend]})`,
        unit: 'req/s',
        toolkit: values.toolkit.map((l) => l.requestsPerSec),
        baseline: values.nest.map((l) => l.requestsPerSec),
        cpu: {
          toolkit: values.toolkit.map((l) => l.cpuMicrosPerRequest),
          baseline: values.nest.map((l) => l.cpuMicrosPerRequest),
        },
        target: { kind: 'min', value: 1 },
      });
    } finally {
      if (backend === 'redis') await deleteKeys(settings.redisUrl, prefix);
    }
  }
  return rows;
}
