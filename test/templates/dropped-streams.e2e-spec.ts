/**
 * Issue 26's attack on resumable streams: clients that start `POST /chat/stream` and drop the
 * connection at once. Before, 5,000 such drops left 4,515 producers calling the model to the
 * end. Now a producer nobody reads is stopped after `limits.detached_grace`, and by default the
 * rate limit and the per-address cap refuse most of the drops before any model call.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, HealthController, LLM, type ToolkitConfigInput } from 'toolkit';
import { ChatController } from '../../templates/chatbot/src/chat.controller.js';

/** How many streams each scenario starts and drops (loopback only). */
const DROPS = Number(process.env.DROPPED_STREAMS ?? 5000);
/** Drops in flight at once. */
const CONCURRENCY = 50;
/** Each scenario's limit: 5,000 drops take about a minute on two busy cores. */
const SCENARIO_MS = 300_000;

/** A model whose streamed answers go on until their signal aborts; counts calls and runners. */
class EndlessModel {
  readonly model = 'endless';
  readonly provider = 'endless';
  calls = 0;
  running = 0;

  chat(_message: string, options: { stream?: boolean; signal?: AbortSignal }) {
    this.calls += 1;
    if (options.stream !== true) return Promise.resolve('An answer.');
    return Promise.resolve(this.words(options.signal));
  }

  private async *words(signal?: AbortSignal): AsyncGenerator<string> {
    this.running += 1;
    try {
      for (;;) {
        signal?.throwIfAborted();
        yield 'word ';
        await sleep(500, undefined, { signal });
      }
    } finally {
      this.running -= 1;
    }
  }
}

/** Starts one stream and closes the connection as soon as the answer's headers arrive. */
function dropOne(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/chat/stream',
        headers: { 'content-type': 'application/json' },
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.destroy();
        req.destroy();
        resolve(status);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ message: 'Tell me a long story' }));
  });
}

/** Drops `count` streams, `CONCURRENCY` at a time; the statuses answered, by status. */
async function dropMany(port: number, count: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      const status = await dropOne(port);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

/** Waits while the running producers keep decreasing; returns how many are left when they stop. */
async function settle(model: EndlessModel, graceMs: number): Promise<number> {
  let last = model.running;
  let quietSince = Date.now();
  while (model.running > 0) {
    await sleep(100);
    if (model.running < last) {
      last = model.running;
      quietSince = Date.now();
    } else if (Date.now() - quietSince > graceMs * 3) break; // no progress for 3 graces
  }
  return model.running;
}

describe(`${DROPS} dropped POST /chat/stream (chatbot template)`, () => {
  let app: App | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function start(limits: ToolkitConfigInput['limits']) {
    const model = new EndlessModel();
    app = new App({
      logger: false,
      cwd: '/nonexistent',
      controllers: [HealthController, ChatController],
      providers: [{ provide: LLM, useValue: model }],
      config: { limits, app: { shutdown_grace: 0 } },
    });
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    server.keepAliveTimeout = 500;
    return { model, port: (server.address() as AddressInfo).port };
  }

  it(
    'with the defaults: the rate limit refuses most, and no producer outlives the grace',
    async () => {
      const grace = 1;
      const { model, port } = await start({ detached_grace: grace });
      const began = Date.now();
      const statuses = await dropMany(port, DROPS);
      const took = Date.now() - began;
      // 60 model calls a minute per address by default; the rest never reach the model.
      expect(statuses[200]).toBeLessThanOrEqual(60);
      expect(statuses[429]).toBe(DROPS - (statuses[200] ?? 0));
      expect(model.calls).toBe(statuses[200]);
      expect(await settle(model, grace * 1000)).toBe(0);
      process.stdout.write(
        `defaults: ${DROPS} drops in ${took} ms: ${JSON.stringify(statuses)}, ${model.calls} model calls, 0 producers left\n`,
      );
    },
    SCENARIO_MS,
  );

  it(
    'with every rate limit and cap off: each producer stops once nobody read it for the grace',
    async () => {
      const grace = 1;
      const { model, port } = await start({
        session_requests: 0,
        address_requests: 0,
        streams_per_session: 0,
        streams_per_address: 0,
        detached_grace: grace,
      });
      const began = Date.now();
      const statuses = await dropMany(port, DROPS);
      const took = Date.now() - began;
      expect(statuses).toEqual({ 200: DROPS });
      expect(model.calls).toBe(DROPS);
      const peak = model.running;
      expect(await settle(model, grace * 1000)).toBe(0);
      process.stdout.write(
        `caps off: ${DROPS} drops in ${took} ms, ${peak} producers running after the last drop, 0 after the grace\n`,
      );
    },
    SCENARIO_MS,
  );
});
