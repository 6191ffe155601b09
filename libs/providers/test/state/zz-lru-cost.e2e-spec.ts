// TEMPORARY measurement (deleted after): per-op cost of add + list, 20-message history.
import { it } from '@jest/globals';
import { createMemoryStore } from '../../src/memory/memory-store.factory.js';
import { POSTGRES_URL, REDIS_URL, deleteRedisKeys, dropTable, uniquePrefix } from './support/backends.js';

const LANES = 16;
async function measure(backend: 'redis' | 'postgres', label: string, fresh: boolean): Promise<void> {
  const prefix = uniquePrefix('cost');
  const store = createMemoryStore({ backend, max_history: 20, redis_url: REDIS_URL, postgres_url: POSTGRES_URL, key_prefix: prefix, max_conversations: 10_000 });
  const msg = (c: string) => ({ role: 'user' as const, content: c, timestamp: new Date().toISOString() });
  for (let l = 0; l < LANES; l += 1) for (let i = 0; i < 20; i += 1) await store.append(`user-${l}`, msg(`m${i}`));
  let ops = 0; let n = 0;
  const run = async (ms: number) => {
    const end = Date.now() + ms;
    await Promise.all(Array.from({ length: LANES }, async (_, l) => {
      while (Date.now() < end) {
        const user = fresh ? `new-${l}-${n++}` : `user-${l}`;
        await store.append(user, msg('What is the capital of France, and why is it Paris?'));
        await store.list(user);
        ops += 1;
      }
    }));
  };
  await run(1500); ops = 0;
  const cpu0 = process.cpuUsage(); const t0 = performance.now();
  await run(4000);
  const secs = (performance.now() - t0) / 1000; const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${label} ${backend} ${fresh ? 'new-conv' : 'existing'}: ${(ops / secs).toFixed(0)} ops/s, client CPU ${((cpu.user + cpu.system) / ops).toFixed(0)} us/op\n`);
  await store.close();
  if (backend === 'redis') await deleteRedisKeys(`${prefix}:`); else await dropTable(`${prefix}_memory`);
  await dropTable(`${prefix}_memory_lru`).catch(() => undefined);
  await dropTable(`${prefix}_memory_lru_count`).catch(() => undefined);
}
const LABEL = process.env.LRU_LABEL ?? 'run';
it('measures', async () => {
  for (const b of ['redis', 'postgres'] as const) { await measure(b, LABEL, false); await measure(b, LABEL, true); }
}, 120_000);
