/**
 * Resumable streams (`@Stream({ resumable: true })`): the producer runs once, whether or not its
 * client stays; a client reconnecting with `Last-Event-ID` — to the same process or, over Redis,
 * to another — gets exactly the events it missed, then the rest live, in order; `DELETE
 * /streams/:id` cancels the producer wherever it runs (the upstream LLM call is closed).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Controller, Inject } from '@nestjs/common';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  App,
  Arg,
  LLM,
  RequestSignal,
  Route,
  Stream,
  ToolkitError,
  type AppOptions,
} from 'toolkit';
import { SseParser, type SseEvent } from 'toolkit/testing';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';

const probe = { runs: 0, finallyRan: 0 };

@Controller()
class StoryController {
  constructor(@Inject(LLM) private readonly llm: LLM) {}

  @Route('/story', { methods: ['GET', 'POST'] })
  @Stream({ resumable: true })
  async *story(
    @Arg('count') count: number,
    @RequestSignal() signal: AbortSignal,
  ): AsyncGenerator<string | { type: string; data: object }> {
    probe.runs += 1;
    try {
      for (let i = 1; i <= count; i += 1) {
        await sleep(15, undefined, { signal });
        yield i % 5 === 0 ? { type: 'milestone', data: { part: i } } : `part ${i}`;
      }
    } finally {
      probe.finallyRan += 1;
    }
  }

  @Route('/mine', { methods: ['POST'] })
  @Stream({ resumable: { owner: (req) => req.headers['x-user'] as string | undefined } })
  async *mine(@RequestSignal() signal: AbortSignal): AsyncGenerator<string> {
    for (let i = 1; i <= 10; i += 1) {
      await sleep(15, undefined, { signal });
      yield `secret ${i}`;
    }
  }

  @Route('/chat', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *chat(@RequestSignal() signal: AbortSignal): AsyncGenerator<string> {
    yield* await this.llm.chat('tell me everything', { stream: true, signal });
  }

  @Route('/refused', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *refused(): AsyncGenerator<string> {
    throw new ToolkitError('Upstream quota exhausted', { statusCode: 429 });
  }
}

interface Reading {
  status: number;
  headers: IncomingMessage['headers'];
  events: SseEvent[];
  body: string;
}

/**
 * Reads a stream until `stopAfter` events arrived (then drops the connection) or it ends.
 */
function read(
  port: number,
  path: string,
  options: { method?: string; lastEventId?: string; stopAfter?: number; user?: string } = {},
): Promise<Reading> {
  return new Promise((resolve, reject) => {
    const parser = new SseParser();
    const events: SseEvent[] = [];
    let body = '';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    if (options.user !== undefined) headers['x-user'] = options.user;
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'POST', headers, agent: false },
      (res) => {
        const done = (): void =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, events, body });
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
          events.push(...parser.feed(chunk));
          if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
            events.splice(options.stopAfter);
            req.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', () => undefined);
      },
    );
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end(options.method === 'GET' ? undefined : '{}');
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (condition()) return;
    await sleep(10);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

function texts(events: SseEvent[]): string[] {
  return events.map((e) => (e.event === 'message' ? e.data : `${e.event}:${e.data}`));
}

function expected(from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i <= to; i += 1) {
    out.push(i % 5 === 0 ? `milestone:${JSON.stringify({ part: i })}` : `part ${i}`);
  }
  return out;
}

async function start(config: AppOptions['config']) {
  const app = new App({
    controllers: [StoryController],
    logger: false,
    cwd: '/nonexistent',
    config,
  });
  // The same story as a functional route (its handler is built differently).
  app.route(
    '/tale',
    { methods: ['POST'], params: { count: 'number' }, stream: { resumable: true } },
    async function* ({ count }, { signal }) {
      for (let i = 1; i <= count; i += 1) {
        await sleep(15, undefined, { signal });
        yield `part ${i}`;
      }
    },
  );
  const server = await app.run({ host: '127.0.0.1', port: 0 });
  return { app, port: (server.address() as AddressInfo).port };
}

beforeEach(() => {
  probe.runs = 0;
  probe.finallyRan = 0;
});

describe('a resumable stream in one process (in-process log)', () => {
  let app: App;
  let port: number;

  beforeAll(async () => ({ app, port } = await start({})));
  afterAll(() => app.close());

  it('numbers events <stream id>.<n> and names the stream in X-Stream-Id', async () => {
    const whole = await read(port, '/story?count=6');
    expect(whole.status).toBe(200);
    const id = String(whole.headers['x-stream-id']);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(texts(whole.events)).toEqual(expected(1, 6));
    expect(whole.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `${id}.${n}`));
  });

  it('keeps producing after the client left; a reconnect gets exactly the missed events', async () => {
    const first = await read(port, '/story?count=12', { stopAfter: 3 });
    expect(texts(first.events)).toEqual(expected(1, 3));
    await until(() => probe.finallyRan === 1, 'the producer to finish without its client');
    const rest = await read(port, '/story?count=12', { lastEventId: first.events[2]?.id });
    expect(rest.status).toBe(200);
    expect(texts(rest.events)).toEqual(expected(4, 12));
    expect(probe.runs).toBe(1);
  });

  it('answers 204 to a reconnect at or past the end of a finished stream', async () => {
    const whole = await read(port, '/story?count=4');
    const id = String(whole.headers['x-stream-id']);
    expect(whole.events.at(-1)?.id).toBe(`${id}.4`);
    for (const position of [`${id}.4`, `${id}.5`, `${id}.40`]) {
      const again = await read(port, '/story?count=4', { lastEventId: position });
      expect([position, again.status, again.body]).toEqual([position, 204, '']);
    }
    const fromThree = await read(port, '/story?count=4', { lastEventId: `${id}.3` });
    expect([fromThree.status, texts(fromThree.events)]).toEqual([200, expected(4, 4)]);
    expect(probe.runs).toBe(1);
  });

  it('resumes without the parameters of the request that started the stream', async () => {
    for (const path of ['/story', '/tale']) {
      const first = await read(port, `${path}?count=6`, { stopAfter: 2 });
      const rest = await read(port, path, { lastEventId: first.events[1]?.id });
      expect([path, rest.status, rest.events.map((e) => e.data).at(-1)]).toEqual([
        path,
        200,
        'part 6',
      ]);
    }
    expect(probe.runs).toBe(1);
  });

  it('resumes from ?lastEventId= in the query as from the header (what a reloaded page can send)', async () => {
    const first = await read(port, '/story?count=8', { method: 'GET', stopAfter: 3 });
    const position = encodeURIComponent(String(first.events[2]?.id));
    const rest = await read(port, `/story?lastEventId=${position}`, { method: 'GET' });
    expect([rest.status, texts(rest.events)]).toEqual([200, expected(4, 8)]);
    const bad = await read(port, '/story?count=8&lastEventId=nope', { method: 'GET' });
    expect(bad.status).toBe(400);
    expect(probe.runs).toBe(1);
  });

  it('joins a stream still running: replayed events, then live ones, no duplicates', async () => {
    const first = await read(port, '/story?count=30', { stopAfter: 2 });
    const rest = await read(port, '/story?count=30', { lastEventId: first.events[1]?.id });
    expect(probe.finallyRan).toBe(1);
    expect(texts(rest.events)).toEqual(expected(3, 30));
    expect(probe.runs).toBe(1);
  });

  it('resumes an app.route stream twice, each client leaving early, missing nothing', async () => {
    const first = await read(port, '/tale?count=20', { stopAfter: 3 });
    const second = await read(port, '/tale?count=20', {
      lastEventId: first.events[2]?.id,
      stopAfter: 1,
    });
    const third = await read(port, '/tale?count=20', { lastEventId: second.events[0]?.id });
    expect(third.status).toBe(200);
    expect([...first.events, ...second.events, ...third.events].map((e) => e.data)).toEqual(
      Array.from({ length: 20 }, (_, i) => `part ${i + 1}`),
    );
  });

  it('resumes a GET the way EventSource reconnects (Last-Event-ID on the same URL)', async () => {
    const first = await read(port, '/story?count=8', { method: 'GET', stopAfter: 4 });
    const rest = await read(port, '/story?count=8', {
      method: 'GET',
      lastEventId: first.events[3]?.id,
    });
    expect(texts(rest.events)).toEqual(expected(5, 8));
  });

  it('answers a failure before the first event with its real status', async () => {
    const refused = await read(port, '/refused');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ error: 'Upstream quota exhausted' });
  });

  it('refuses a Last-Event-ID that is no position (400) and an unknown stream (404)', async () => {
    const malformed = await read(port, '/story?count=3', { lastEventId: 'hello; DROP TABLE' });
    expect([malformed.status, JSON.parse(malformed.body)]).toEqual([
      400,
      { error: 'Last-Event-ID must be the id of an event of this stream (<stream id>.<number>)' },
    ]);
    const unknown = await read(port, '/story?count=3', {
      lastEventId: 'AAAAAAAAAAAAAAAAAAAAAA.3',
    });
    expect([unknown.status, JSON.parse(unknown.body)]).toEqual([
      404,
      { error: 'Stream AAAAAAAAAAAAAAAAAAAAAA is unknown or has expired' },
    ]);
    expect(probe.runs).toBe(0);
  });

  it('DELETE /streams/:id cancels a running producer and answers 404 for unknown ids', async () => {
    const first = await read(port, '/story?count=1000', { stopAfter: 1 });
    const id = String(first.headers['x-stream-id']);
    const cancelled = await fetch(`http://127.0.0.1:${port}/streams/${id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(204);
    await until(() => probe.finallyRan === 1, 'the cancelled producer to stop');
    const rest = await read(port, '/story?count=1000', { lastEventId: first.events[0]?.id });
    const last = rest.events.at(-1);
    const before = String(rest.events.at(-2)?.id ?? first.events[0]?.id);
    const [, number] = before.split('.');
    expect(last).toEqual({
      event: 'error',
      id: `${id}.${Number(number) + 1}`,
      data: JSON.stringify({ error: 'The stream was cancelled' }),
    });
    expect(rest.events.length).toBeLessThan(999);
    // A client that missed the error is told; one that had it gets 204: the stream is over.
    const missed = await read(port, '/story?count=1000', { lastEventId: before });
    expect(missed.events).toEqual([last]);
    const again = await read(port, '/story?count=1000', { lastEventId: last?.id });
    expect([again.status, again.body]).toEqual([204, '']);
    expect(probe.runs).toBe(1);
    const unknown = await fetch(`http://127.0.0.1:${port}/streams/nope`, { method: 'DELETE' });
    expect(unknown.status).toBe(404);
  });
});

describe('resumable streams that belong to someone, and a log that is down', () => {
  it('never lets another owner read a stream, even with its id', async () => {
    const { app, port } = await start({});
    try {
      const first = await read(port, '/mine', { user: 'ana', stopAfter: 2 });
      const lastId = first.events[1]?.id;
      const intruder = await read(port, '/mine', { user: 'bob', lastEventId: lastId });
      expect(intruder.status).toBe(404);
      expect(intruder.body).not.toContain('secret');
      const anonymous = await read(port, '/mine', { lastEventId: lastId });
      expect(anonymous.status).toBe(404);
      const owner = await read(port, '/mine', { user: 'ana', lastEventId: lastId });
      expect(texts(owner.events)).toEqual([3, 4, 5, 6, 7, 8, 9, 10].map((i) => `secret ${i}`));
    } finally {
      await app.close();
    }
  });

  it('streams without resumption when the Redis log cannot be reached', async () => {
    const { app, port } = await start({
      memory: { backend: 'redis', redis_url: 'redis://127.0.0.1:1' },
    });
    try {
      const plain = await read(port, '/story?count=6');
      expect(plain.status).toBe(200);
      expect(plain.headers['x-stream-id']).toBeUndefined();
      expect(texts(plain.events)).toEqual(expected(1, 6));
      expect(plain.events[0]?.id).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe('a resumable stream across two processes sharing Redis', () => {
  const prefix = `resumable-test-${process.pid}-${Date.now()}`;
  let fake: FakeLlmServer;
  let a: { app: App; port: number };
  let b: { app: App; port: number };

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    process.env.OPENAI_API_KEY = 'sk-test-resumable';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
    const config = {
      memory: { backend: 'redis' as const, key_prefix: prefix },
      llm: { default_model: 'openai/gpt-4o-mini' },
    };
    a = await start(config);
    b = await start(config);
  });

  afterAll(async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    await a.app.close();
    await b.app.close();
    await fake.close();
  });

  it('a client that lost process A resumes on process B, missing nothing', async () => {
    const first = await read(a.port, '/story?count=20', { stopAfter: 4 });
    expect(texts(first.events)).toEqual(expected(1, 4));
    const rest = await read(b.port, '/story?count=20', { lastEventId: first.events[3]?.id });
    expect(rest.status).toBe(200);
    expect(texts(rest.events)).toEqual(expected(5, 20));
    expect(rest.events.map((e) => e.id)).toEqual(
      Array.from({ length: 16 }, (_, i) => `${String(first.headers['x-stream-id'])}.${i + 5}`),
    );
    expect(probe.runs).toBe(1);
  });

  it('a cancel sent to process B closes the upstream call of the producer on A', async () => {
    fake.script({ kind: 'hang-after', chunks: ['Once', ' upon'] });
    const first = await read(a.port, '/chat', { stopAfter: 1 });
    expect(first.events[0]?.data).toBe('Once');
    await fake.waitForRequests(1);
    const id = String(first.headers['x-stream-id']);
    const cancelled = await fetch(`http://127.0.0.1:${b.port}/streams/${id}`, {
      method: 'DELETE',
    });
    expect(cancelled.status).toBe(204);
    const upstream = fake.requests.at(-1);
    await upstream?.ended;
    expect(upstream?.clientClosed).toBe(true);
    const rest = await read(b.port, '/chat', { lastEventId: first.events[0]?.id });
    expect(texts(rest.events)).toEqual([
      ' upon',
      `error:${JSON.stringify({ error: 'The stream was cancelled' })}`,
    ]);
    expect(rest.events.map((e) => e.id)).toEqual([`${id}.2`, `${id}.3`]);
  });
});
