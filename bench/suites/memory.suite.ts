import type { BenchSettings } from '../support/settings.js';
import type { OpsResult } from '../support/ops-loop.js';
import { interleave, log } from '../support/rounds.js';
import type { Row } from '../support/row.js';
import { runWorker } from '../support/server-process.js';

const BARE: Record<string, string> = {
  memory: 'a `Map` of arrays',
  redis: 'ioredis MULTI(RPUSH+LTRIM) + LRANGE',
  postgres: 'pg INSERT + SELECT',
};

/**
 * Memory backends: `add` + `toDictList` of a 20-message history through `app.memory(userId)`,
 * against the bare client doing the same commands. Each side runs in its own process.
 */
export async function memorySuite(settings: BenchSettings): Promise<Row[]> {
  const rows: Row[] = [];
  for (const backend of ['memory', 'redis', 'postgres'] as const) {
    log(`memory backend ${backend}`);
    const values = await interleave(
      ['toolkit', 'bare'] as const,
      settings.rounds,
      async (impl, round) => {
        const prefix = `tkbench_${process.pid}_${backend}_${impl}_${round}`;
        const result = await runWorker<OpsResult>(
          'workers/memory-ops.worker.js',
          [
            backend,
            impl,
            String(settings.duration),
            String(settings.opsConcurrency),
            String(settings.warmup),
            prefix,
          ],
          { BENCH_REDIS_URL: settings.redisUrl, BENCH_POSTGRES_URL: settings.postgresUrl },
        );
        return { opsPerSec: result.opsPerSec, cpuMicrosPerOp: result.cpuMicrosPerOp };
      },
    );
    rows.push({
      id: `memory-${backend}`,
      name: `Memory \`add\` + \`toDictList\` (20 msgs), ${backend} vs ${BARE[backend]}`,
      unit: 'ops/s',
      toolkit: values.toolkit.map((v) => v.opsPerSec),
      baseline: values.bare.map((v) => v.opsPerSec),
      // Client-side CPU per op (the Redis/PostgreSQL servers' share is not in it).
      cpu: {
        toolkit: values.toolkit.map((v) => v.cpuMicrosPerOp),
        baseline: values.bare.map((v) => v.cpuMicrosPerOp),
      },
      target: { kind: 'min', value: 0.8 },
    });
  }
  return rows;
}
