/**
 * Streaming under pressure, over real sockets. A client that stops reading while the producer
 * could go on forever pauses the producer through backpressure (it gets only as far as the socket
 * buffers allow), and 200 concurrent open streams stay cheap; when clients leave, every producer
 * stops and its `finally` runs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, RequestSignal, Route, Stream } from 'toolkit';
import { collectGarbage } from '../support/collect-garbage.js';
import { serve, type ServedApp } from './support/served-app.js';

const CHUNK = 'x'.repeat(64 * 1024);
const STREAMS = 200;

const probe = { produced: 0, firehoseStopped: 0, tickersOpen: 0, tickersStopped: 0 };

@Controller()
class PressureController {
  /** Endless and never waits: only backpressure can hold it. */
  @Route('/firehose', { methods: ['POST'] })
  @Stream()
  async *firehose(): AsyncGenerator<string> {
    try {
      for (;;) {
        probe.produced += 1;
        yield CHUNK;
      }
    } finally {
      probe.firehoseStopped += 1;
    }
  }

  /** Endless, one small event every 100 ms, like a slow model. */
  @Route('/ticker', { methods: ['GET'] })
  @Stream()
  async *ticker(@RequestSignal() signal: AbortSignal): AsyncGenerator<string> {
    probe.tickersOpen += 1;
    try {
      for (let i = 0; ; i += 1) {
        yield `tick ${i}`;
        await sleep(100, undefined, { signal });
      }
    } finally {
      probe.tickersOpen -= 1;
      probe.tickersStopped += 1;
    }
  }
}

/** Polls until `check` holds (at most `timeoutMs`); returns whether it did. */
async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

describe('SSE under slow clients and many open streams', () => {
  let served: ServedApp;

  beforeAll(async () => {
    served = await serve(
      'pressure',
      new App({ controllers: [PressureController], logger: false, cwd: '/nonexistent' }),
    );
  });

  afterAll(async () => {
    await served?.close();
  });

  it('pauses a producer whose client does not read, and stops it when the client leaves', async () => {
    const { port } = new URL(served.base);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause(); // never read: the kernel buffers fill, then the server's write buffer
    socket.write(
      'POST /firehose HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\n\r\n{}',
    );
    // Wait until the producer has been stuck for a full second.
    let last = -1;
    let stableSince = Date.now();
    const settled = await eventually(() => {
      if (probe.produced !== last) {
        last = probe.produced;
        stableSince = Date.now();
      }
      return probe.produced > 0 && Date.now() - stableSince > 1_000;
    }, 20_000);
    expect(settled).toBe(true);
    // Unbounded, it would have made gigabytes by now; held back, only what the socket buffers
    // (a few MiB of kernel buffers plus Node's high-water mark) can take.
    const producedMiB = (probe.produced * CHUNK.length) / 1024 / 1024;
    expect(producedMiB).toBeLessThan(64);
    expect(probe.firehoseStopped).toBe(0);

    socket.destroy();
    expect(await eventually(() => probe.firehoseStopped === 1, 5_000)).toBe(true);
  });

  it(`holds ${STREAMS} concurrent streams and stops every producer when the clients leave`, async () => {
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const clients: { req: ClientRequest; res?: IncomingMessage }[] = [];
    const firstEvents = Array.from(
      { length: STREAMS },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request(`${served.base}/ticker`, { agent: false }, (res) => {
            client.res = res;
            res.once('data', () => resolve());
          });
          const client: { req: ClientRequest; res?: IncomingMessage } = { req };
          clients.push(client);
          req.on('error', reject);
          req.end();
        }),
    );
    await Promise.all(firstEvents);
    expect(probe.tickersOpen).toBe(STREAMS);
    // 200 open streams cost little memory: no buffering of what clients already took.
    collectGarbage();
    const heapGrowthMiB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    expect(heapGrowthMiB).toBeLessThan(100);
    await sleep(300);
    expect(probe.tickersOpen).toBe(STREAMS);

    for (const client of clients) client.req.destroy();
    expect(await eventually(() => probe.tickersOpen === 0, 10_000)).toBe(true);
    expect(probe.tickersStopped).toBe(STREAMS);
    // Opening 200 connections takes ~2 s here alone, and over 30 s (jest's default) on a machine
    // running two other suites: the bound is for a hung test, not a measure of speed.
  }, 120_000);
});
