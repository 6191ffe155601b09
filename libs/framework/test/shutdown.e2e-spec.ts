/**
 * Graceful shutdown with streams open: `app.close()` stops accepting, gives open streams
 * `app.shutdown_grace` seconds, then ends each with a last `event: error`, aborts its signal (the
 * upstream LLM call is cancelled: the provider sees its connection close) and runs the producer's
 * `finally` — and resolves within the grace period plus one second.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Inject } from '@nestjs/common';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LLM, RequestSignal, Route, Stream } from 'toolkit';
import { SseParser, type SseEvent } from 'toolkit/testing';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';

const STREAMS = 50;
const GRACE_SECONDS = 0.5;
const probe = { started: 0, finallyRan: 0, finished: 0 };

@Controller()
class ChatController {
  constructor(@Inject(LLM) private readonly llm: LLM) {}

  /** Relays a model stream that never ends (the fake provider holds it open). */
  @Route('/chat', { methods: ['POST'] })
  @Stream()
  async *chat(@RequestSignal() signal: AbortSignal): AsyncGenerator<string> {
    probe.started += 1;
    try {
      yield* await this.llm.chat('tell me everything', { stream: true, signal });
    } finally {
      probe.finallyRan += 1;
    }
  }

  /** Finishes well within the grace period. */
  @Route('/short', { methods: ['POST'] })
  @Stream()
  async *short(): AsyncGenerator<string> {
    yield 'begin';
    await new Promise((resolve) => setTimeout(resolve, 100));
    yield 'end';
    probe.finished += 1;
  }
}

interface OpenStream {
  events: SseEvent[];
  firstEvent: Promise<void>;
  ended: Promise<void>;
}

function openStream(port: number, path: string): OpenStream {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let first!: () => void;
  const firstEvent = new Promise<void>((resolve) => (first = resolve));
  const ended = new Promise<void>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res: IncomingMessage) => {
        res.on('data', (chunk: Buffer) => {
          events.push(...parser.feed(chunk));
          if (events.length > 0) first();
        });
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
  return { events, firstEvent, ended };
}

describe('app.close() with open streams', () => {
  let fake: FakeLlmServer;
  let app: App;
  let port: number;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    app = new App({
      controllers: [ChatController],
      logger: false,
      cwd: '/nonexistent',
      config: {
        app: { shutdown_grace: GRACE_SECONDS },
        llm: { default_model: 'openai/gpt-4o-mini' },
      },
    });
    process.env.OPENAI_API_KEY = 'sk-test-shutdown';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
    for (let i = 0; i < STREAMS; i += 1) fake.script({ kind: 'hang-after', chunks: ['hello'] });
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    await app.close();
    await fake.close();
  });

  it('ends every stream, cancels every upstream call and resolves within grace + 1 s', async () => {
    const streams = Array.from({ length: STREAMS }, () => openStream(port, '/chat'));
    const short = openStream(port, '/short');
    await Promise.all(streams.map((s) => s.firstEvent));
    await fake.waitForRequests(STREAMS);
    expect(probe.started).toBe(STREAMS);

    const startedAt = Date.now();
    await app.close();
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeLessThan(GRACE_SECONDS * 1000 + 1000);

    await Promise.all(streams.map((s) => s.ended));
    for (const stream of streams) {
      expect(stream.events[0]).toEqual({ event: 'message', data: 'hello' });
      expect(stream.events.at(-1)).toEqual({
        event: 'error',
        data: JSON.stringify({ error: 'The server is shutting down' }),
      });
    }
    expect(probe.finallyRan).toBe(STREAMS);
    await Promise.all(fake.requests.map((r) => r.ended));
    expect(fake.requests.filter((r) => r.clientClosed)).toHaveLength(STREAMS);

    // The stream that could finish within the grace period finished normally.
    await short.ended;
    expect(short.events.map((e) => e.data)).toEqual(['begin', 'end']);
    expect(probe.finished).toBe(1);
  });

  it('accepts no connection once closed', async () => {
    const refused = await new Promise<string>((resolve) => {
      const options = { host: '127.0.0.1', port, path: '/short', method: 'POST', agent: false };
      const req = request(options, () => resolve('answered'));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
