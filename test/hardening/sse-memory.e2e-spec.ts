/**
 * Memory stays bounded under a fast producer and a client that stopped reading. A server process
 * of its own (so its RSS is the server's alone) streams 10 MB/s; a client connects and pauses.
 * An async generator is paused by backpressure; an Observable, which cannot be paused, overruns
 * `maxPendingBytes` (4 MiB by default) and its stream ends with `event: error` and a logged
 * error. Either way the server grows by less than 20 MB over three seconds (30 MB produced if
 * nothing held it). Needs `npm run build` (the server runs the built package).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./fixtures/firehose.server.mjs', import.meta.url));
const PAUSED_MS = 3000;
const RSS_BOUND = 20 * 1024 * 1024;

interface Sample {
  rss: number;
  produced: { observable: number; generator: number };
}

class FirehoseProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiting?: () => void;
  stderr = '';

  constructor() {
    this.child = spawn(process.execPath, ['--expose-gc', SERVER], { stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.waiting?.();
    });
  }

  async next<T>(): Promise<T> {
    while (this.lines.length === 0) {
      const exited = this.child.exitCode !== null;
      if (exited) throw new Error(`firehose server exited: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    return JSON.parse(this.lines.shift()!) as T;
  }

  sample(): Promise<Sample> {
    this.child.stdin.write('rss\n');
    return this.next<Sample>();
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

/** Opens a raw GET stream and stops reading once the headers are in. */
function pausedStream(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Resumes a paused stream and reads it to its end (the last 4 KB are kept). */
function drain(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let tail = '';
    socket.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4096);
    });
    socket.on('close', () => resolve(tail));
    socket.resume();
  });
}

describe('a paused client against a 10 MB/s producer', () => {
  const server = new FirehoseProcess();
  let port: number;
  let baseline: number;

  beforeAll(async () => {
    ({ port } = await server.next<{ port: number }>());
    // Warm both routes up, so the baseline includes everything a first stream allocates.
    for (const path of ['/observable', '/generator']) {
      const socket = await pausedStream(port, path);
      socket.destroy();
    }
    await sleep(200);
    baseline = (await server.sample()).rss;
  });

  afterAll(() => server.stop());

  it('pauses an async generator: few chunks produced, RSS bounded', async () => {
    const before = (await server.sample()).produced.generator;
    const socket = await pausedStream(port, '/generator');
    await sleep(PAUSED_MS);
    const during = await server.sample();
    // 3 s at one chunk per millisecond would be ~3,000 chunks: backpressure held it to the
    // socket buffers' worth.
    expect(during.produced.generator - before).toBeLessThan(1000);
    expect(during.rss - baseline).toBeLessThan(RSS_BOUND);
    socket.destroy();
  });

  it('ends an overrunning Observable with event: error and a logged error, RSS bounded', async () => {
    const socket = await pausedStream(port, '/observable');
    await sleep(PAUSED_MS);
    const during = await server.sample();
    expect(during.rss - baseline).toBeLessThan(RSS_BOUND);
    expect(server.stderr).toMatch(/Stream failed \(GET \/observable\)/);
    expect(server.stderr).toMatch(/not reading its events/);
    const tail = await drain(socket);
    expect(tail).toMatch(
      /event: error\ndata: \{"error":"The client is not reading its events: more than 4194304 bytes waited for it"\}\n\n/,
    );
  });
});
