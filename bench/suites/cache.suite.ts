import type { BenchSettings } from '../support/settings.js';
import { deleteKeys } from '../support/cleanup.js';
import { drive, driveServer, probe, type RequestSpec } from '../support/load.js';
import { interleave, log, withServers } from '../support/rounds.js';
import type { Row } from '../support/row.js';

const BODY = { text: 'Summarise the quarterly report in three sentences.' };
const UNCACHED: RequestSpec = { path: '/uncached', method: 'POST', json: BODY };
const CACHED: RequestSpec = { path: '/cached', method: 'POST', json: BODY };

/** `@Cache` HIT vs the same handler uncached (2 ms of CPU work), on the memory and Redis backends. */
export async function cacheSuite(settings: BenchSettings): Promise<Row[]> {
  const rows: Row[] = [];
  for (const backend of ['memory', 'redis'] as const) {
    log(`@Cache on the ${backend} backend`);
    const prefix = `toolkit-bench:${process.pid}:${backend}:`;
    try {
      const values = await withServers(
        {
          app: {
            script: 'servers/cache-toolkit.server.js',
            env: {
              CACHE_BACKEND: backend,
              CACHE_REDIS_URL: settings.redisUrl,
              CACHE_PREFIX: prefix,
            },
          },
        },
        async ({ app }) => {
          await probe(app.url, CACHED);
          const hit = await probe(app.url, CACHED);
          if (hit.status !== 200 || hit.headers['x-cache'] !== 'HIT') {
            throw new Error(`${backend}: second identical request was not a HIT (${hit.status})`);
          }
          for (const spec of [UNCACHED, CACHED]) {
            await drive(app.url, spec, settings.warmup, settings.connections);
          }
          const specs = { uncached: UNCACHED, cached: CACHED };
          return interleave(['cached', 'uncached'] as const, settings.rounds, (key) =>
            driveServer(app, specs[key], settings.duration, settings.connections),
          );
        },
      );
      rows.push({
        id: `cache-${backend}`,
        name: `\`@Cache\` HIT vs uncached 2 ms handler (${backend})`,
        unit: 'req/s',
        toolkit: values.cached.map((l) => l.requestsPerSec),
        baseline: values.uncached.map((l) => l.requestsPerSec),
        cpu: {
          toolkit: values.cached.map((l) => l.cpuMicrosPerRequest),
          baseline: values.uncached.map((l) => l.cpuMicrosPerRequest),
        },
        target: { kind: 'min', value: 3 },
      });
    } finally {
      if (backend === 'redis') await deleteKeys(settings.redisUrl, prefix);
    }
  }
  return rows;
}
