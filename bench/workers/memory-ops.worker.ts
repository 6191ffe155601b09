// One memory-backend measurement in its own process:
//   node memory-ops.worker.js <memory|redis|postgres> <toolkit|bare> <seconds> <concurrency> <warmup> <prefix>
// An op is `add` of one message then reading back the 20-message history.
import { App } from 'toolkit';
import { report, runOps } from '../support/ops-loop.js';
import { deleteKeys, dropTable } from '../support/cleanup.js';
import { bareMemory, type MemoryOps } from './bare-memory.js';

const HISTORY = 20;
const [backend, impl, seconds, concurrency, warmup, prefix] = process.argv.slice(2);
if (!['memory', 'redis', 'postgres'].includes(backend) || !['toolkit', 'bare'].includes(impl)) {
  throw new Error('usage: memory-ops.worker.js <memory|redis|postgres> <toolkit|bare> ...');
}
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function toolkitMemory(): MemoryOps {
  const app = new App({
    logger: false,
    config: {
      memory: {
        backend: backend as 'memory' | 'redis' | 'postgres',
        max_history: HISTORY,
        redis_url: redisUrl,
        postgres_url: postgresUrl,
        key_prefix: prefix,
      },
    },
  });
  return {
    add: async (user, content) => {
      await app.memory(user).add('user', content);
    },
    list: (user) => app.memory(user).toDictList(),
    // One `app.memory()` per request, as a route handler does.
    turn: async (user, content) => {
      const memory = app.memory(user);
      await memory.add('user', content);
      return memory.toDictList();
    },
    cleanup: async () => {
      if (backend === 'postgres') await dropTable(postgresUrl, `${prefix}_memory`);
      if (backend === 'redis') await deleteKeys(redisUrl, `${prefix}:`);
      await app.close();
    },
  };
}

const memory =
  impl === 'toolkit'
    ? toolkitMemory()
    : await bareMemory(backend as 'memory' | 'redis' | 'postgres', {
        redisUrl,
        postgresUrl,
        prefix,
        history: HISTORY,
      });
const lanes = Number(concurrency);
const users = Array.from({ length: lanes }, (_, i) => `user-${i}`);
try {
  for (const user of users) {
    for (let i = 0; i < HISTORY; i += 1) await memory.add(user, `message ${i}`);
  }
  const result = await runOps(
    async (lane) => {
      const content = 'What is the capital of France, and why is it Paris?';
      let history: { role: string }[];
      if (memory.turn) {
        history = await memory.turn(users[lane], content);
      } else {
        await memory.add(users[lane], content);
        history = await memory.list(users[lane]);
      }
      if (history.length !== HISTORY) throw new Error(`history has ${history.length} messages`);
    },
    { seconds: Number(seconds), concurrency: lanes, warmupSeconds: Number(warmup) },
  );
  report(result);
} finally {
  await memory.cleanup();
}
