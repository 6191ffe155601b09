/**
 * `toolkit ingest` and `toolkit worker` facing bad conditions, as a user sees them: Redis going
 * away mid-run (both say so in one line, wait for it and carry on), files and folders deleted
 * after they were queued, a folder removed while it is listed. Redis is reached through a TCP
 * proxy the test cuts and restores; every run has its own queue, removed afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { IngestionQueue } from '../../../libs/rag/src/queue/ingestion-queue.js';
import { TcpProxy } from '../../../libs/rag/test/support/tcp-proxy.js';
import type { IngestSummary } from '../src/ingest/ingest-summary.js';
import { assertCliBuilt, eventually, startCli, type CliProcess } from './support/cli-process.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const RUN = `${process.pid}_${randomBytes(3).toString('hex')}`;

const projects: TempProject[] = [];
const queues: string[] = [];
const processes: CliProcess[] = [];
const proxies: TcpProxy[] = [];

/** A user's environment without keys, backends or TOOLKIT_* overrides, Redis at `redisUrl`. */
function env(redisUrl: string): NodeJS.ProcessEnv {
  const out = { ...process.env };
  for (const name of Object.keys(out))
    if (/_API_KEY$|^REDIS_URL$|^DATABASE_URL$|^TOOLKIT_/.test(name)) delete out[name];
  return { ...out, REDIS_URL: redisUrl };
}

function project(label: string): { target: TempProject; queue: string } {
  const queue = `toolkit-ingest-bad-${RUN}-${label}`;
  queues.push(queue);
  const target = createTempProject({
    'toolkit.yaml': `app:\n  name: bad-${label}\nrag:\n  embeddings: offline\n  queue: ${queue}\n  store: local\n`,
  });
  projects.push(target);
  return { target, queue };
}

function writeNotes(target: TempProject, folder: string, count: number): void {
  for (let n = 0; n < count; n += 1) {
    target.write(`${folder}/note-${n}.txt`, `Note ${n} of ${folder}, ref ${n * 7919}. Budget.\n`);
  }
}

function cli(target: TempProject, args: string[], redisUrl: string): CliProcess {
  const started = startCli(args, { cwd: target.dir, env: env(redisUrl), timeoutMs: 120_000 });
  processes.push(started);
  return started;
}

async function proxy(): Promise<TcpProxy> {
  const started = await TcpProxy.start(6379);
  proxies.push(started);
  return started;
}

const viaProxy = (p: TcpProxy) => `redis://127.0.0.1:${p.port}`;

beforeAll(() => assertCliBuilt());

afterAll(async () => {
  for (const started of processes) started.child.kill('SIGKILL');
  await Promise.all(processes.map((started) => started.exited));
  await Promise.all(proxies.map((p) => p.close()));
  for (const name of queues) {
    const queue = new IngestionQueue({ redisUrl: REDIS_URL, name });
    await queue.obliterate().catch(() => undefined);
    await queue.close();
  }
  projects.forEach((created) => created.cleanup());
}, 60_000);

describe('Redis going away mid-run', () => {
  it('toolkit worker and toolkit ingest --wait say so, wait for it and finish the run', async () => {
    const { target, queue: name } = project('outage');
    writeNotes(target, 'notes', 40);
    const queue = new IngestionQueue({ redisUrl: REDIS_URL, name });
    const workerLine = await proxy();
    const followerLine = await proxy();

    const worker = cli(target, ['worker'], viaProxy(workerLine));
    await worker.waitFor(/Worker ready/);
    await workerLine.cut();
    await worker.waitFor(
      /^Warning: lost the connection to Redis at 127\.0\.0\.1:\d+ \(.*\); reconnecting \(queued files stay queued/m,
    );

    // Queued while the worker is cut off; then the follower loses Redis too.
    const follower = cli(target, ['ingest', 'notes', '--wait', '--json'], viaProxy(followerLine));
    expect(await eventually(async () => (await queue.counts()).waiting === 40, 20_000)).toBe(true);
    await followerLine.cut();
    await follower.waitFor(
      /^Warning: lost the connection to Redis at 127\.0\.0\.1:\d+ \(.*\); waiting for it to come back \(the jobs stay queued/m,
    );

    await workerLine.restore();
    await worker.waitFor(/^Redis is back: taking jobs again$/m);
    expect(await eventually(async () => (await queue.counts()).completed === 40, 30_000)).toBe(
      true,
    );
    await followerLine.restore();
    const { code } = await follower.exited;
    expect(code).toBe(0);
    expect(follower.stdout()).toMatch(/^Redis is back: following the jobs again$/m);
    const summary = JSON.parse(follower.stdout().trim().split('\n').at(-1) ?? '') as IngestSummary;
    expect(summary).toMatchObject({ files: 40, added: 40, unchanged: 0, failed: 0 });
    expect(follower.stderr().match(/lost the connection/g)).toHaveLength(1);
    expect(follower.stderr()).not.toMatch(/\n\s+at /); // no stack

    // The worker never exited; it stops cleanly on SIGTERM.
    expect(worker.child.exitCode).toBeNull();
    expect(worker.stderr().match(/lost the connection/g)).toHaveLength(1);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    expect(worker.stdout()).toMatch(/Worker stopped/);
    expect(worker.stderr()).not.toMatch(/\n\s+at /);
    await queue.close();
  }, 120_000);
});
