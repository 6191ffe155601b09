/**
 * `toolkit ingest` and `toolkit worker` facing bad conditions, as a user sees them: Redis going
 * away mid-run (both say so in one line, wait for it and carry on), files and folders deleted
 * after they were queued, a folder removed while it is listed. Redis is reached through a TCP
 * proxy the test cuts and restores; every run has its own queue, removed afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { ToolkitError } from '../../../libs/providers/src/errors/toolkit.error.js';
import { IngestionQueue } from '../../../libs/rag/src/queue/ingestion-queue.js';
import { TcpProxy } from '../../../libs/rag/test/support/tcp-proxy.js';
import { ingestInProcess } from '../src/ingest/in-process-ingest.js';
import type { IngestSummary } from '../src/ingest/ingest-summary.js';
import { TerminalService } from '../src/services/terminal.service.js';
import { reportError } from '../src/shell/error-reporter.js';
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

/** A terminal writing into strings, to see what the shell prints for an error. */
class CapturedTerminal extends TerminalService {
  private readonly sink = new PassThrough();
  protected override readonly out = this.sink as unknown as NodeJS.WriteStream;
  protected override readonly err = this.sink as unknown as NodeJS.WriteStream;
  printed(): string {
    return String(this.sink.read() ?? '');
  }
}

describe('folders that vanish', () => {
  it('toolkit ingest --wait reports the queued files of a deleted folder as failed, with why', async () => {
    const { target, queue: name } = project('vanished');
    writeNotes(target, 'notes', 12);
    const queue = new IngestionQueue({ redisUrl: REDIS_URL, name });
    const follower = cli(target, ['ingest', 'notes', '--wait'], REDIS_URL);
    expect(await eventually(async () => (await queue.counts()).waiting === 12, 20_000)).toBe(true);
    rmSync(target.path('notes'), { recursive: true });
    const worker = cli(target, ['worker'], REDIS_URL);
    const { code } = await follower.exited;
    expect(code).toBe(1);
    expect(follower.stdout()).toMatch(
      /^Ingested 12 files from notes .*: 0 added, 0 unchanged, 12 failed/m,
    );
    expect(follower.stdout()).toMatch(
      /^ {2}failed: note-0\.txt: file no longer exists \(deleted after its folder was listed\)$/m,
    );
    await worker.waitFor(/^failed\s+note-11\.txt: file no longer exists/m);
    expect(worker.stdout()).not.toMatch(/^retrying/m);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    await queue.close();
  }, 60_000);

  it('toolkit ingest on a folder removed while it is listed: one line, no stack', async () => {
    const { target } = project('listing');
    writeNotes(target, 'notes/a', 2);
    writeNotes(target, 'notes/b', 2);
    const removeAtSecondFolder = (path: string) => {
      if (path.endsWith('b')) rmSync(target.path('notes'), { recursive: true });
    };
    const error = await ingestInProcess({
      folder: 'notes',
      path: target.path('notes'),
      target: { ingest: () => Promise.reject(new Error('nothing should be ingested')) },
      onFolder: removeAtSecondFolder,
    }).catch((e: unknown) => e);
    expect(ToolkitError.isInstance(error)).toBe(true);
    const terminal = new CapturedTerminal();
    expect(reportError(error, terminal)).toBe(1);
    expect(terminal.printed()).toBe(
      'Error: folder notes was removed while it was being listed; nothing was ingested from it\n',
    );
  });
});
