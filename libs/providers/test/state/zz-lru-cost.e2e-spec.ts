// TEMPORARY measurement (deleted after): per-op cost of append + list, before/after the LRU bound.
import { it } from '@jest/globals';
import type { MemoryStore } from '../../src/memory/memory-store.interface.js';
import { RedisMemoryStore } from '../../src/memory/redis-memory.store.js';
import { PostgresMemoryStore } from '../../src/memory/postgres-memory.store.js';
import { BaselineRedisMemoryStore } from '../../src/memory/zz-baseline-redis.js';
import { BaselinePostgresMemoryStore } from '../../src/memory/zz-baseline-postgres.js';
import { POSTGRES_URL, REDIS_URL, deleteRedisKeys, dropTable, uniquePrefix } from './support/backends.js';

const LANES = Number(process.env.LANES ?? 16);
const SECONDS = Number(process.env.SECS ?? 4);
type Mode = 'existing' | 'new' | 'evicting';
function make(impl: string, backend: string, prefix: string, max: number): MemoryStore {
  const o = { keyPrefix: prefix, maxHistory: 20, maxConversations: max };
  if (backend === 'redis') return impl === 'before' ? new BaselineRedisMemoryStore({ ...o, url: REDIS_URL }) : new RedisMemoryStore({ ...o, url: REDIS_URL });
  return impl === 'before' ? new BaselinePostgresMemoryStore({ ...o, url: POSTGRES_URL }) : new PostgresMemoryStore({ ...o, url: POSTGRES_URL });
}
async function measure(backend: string, impl: string, mode: Mode): Promise<string> {
  const prefix = uniquePrefix('cost');
  const store = make(impl, backend, prefix, mode === 'evicting' ? 500 : 10_000);
  const msg = (c: string) => ({ role: 'user' as const, content: c, timestamp: new Date().toISOString() });
  for (let l = 0; l < LANES; l += 1) for (let i = 0; i < 20; i += 1) await store.append(`user-${l}`, msg(`m${i}`));
  if (mode === 'evicting') for (let i = 0; i < 600; i += 1) await store.append(`fill-${i}`, msg('x'));
  let ops = 0; let n = 0;
  const run = async (ms: number) => {
    const end = Date.now() + ms;
    await Promise.all(Array.from({ length: LANES }, async (_, l) => {
      while (Date.now() < end) {
        const user = mode === 'existing' ? `user-${l}` : `new-${l}-${n++}`;
        await store.append(user, msg('What is the capital of France, and why is it Paris?'));
        await store.list(user);
        ops += 1;
      }
    }));
  };
  await run(1000); ops = 0;
  const cpu0 = process.cpuUsage(); const t0 = performance.now();
  await run(SECONDS * 1000);
  const secs = (performance.now() - t0) / 1000; const cpu = process.cpuUsage(cpu0);
  await store.close();
  if (backend === 'redis') await deleteRedisKeys(`${prefix}:`);
  else await dropTable(`${prefix}_memory`);
  return `${(ops / secs).toFixed(0)} ops/s ${((cpu.user + cpu.system) / ops).toFixed(0)}us`;
}
it('measures', async () => {
  const out: Record<string, string[]> = {};
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round += 1) {
    for (const backend of ['redis', 'postgres']) for (const mode of ['existing', 'new', 'evicting'] as Mode[]) for (const impl of ['before', 'after']) {
      const k = `${backend} ${mode} ${impl}`;
      (out[k] ??= []).push(await measure(backend, impl, mode));
    }
  }
  for (const [k, v] of Object.entries(out)) process.stdout.write(`${k}: ${v.join(' | ')}\n`);
}, 600_000);
