/**
 * The `eventsource` package (the WHATWG `EventSource` for Node) on a resumable stream that is over:
 * when the stream ends (or is cancelled) the client reconnects with `Last-Event-ID` as the standard
 * says, and the `204 No Content` it gets tells it to stop. The handler runs once, the client makes
 * one request after the end and none more, and it ends `CLOSED`; a cancelled stream's error
 * event is received once, not replayed on each reconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type MessageEvent as NestMessageEvent } from '@nestjs/common';
import { EventSource } from 'eventsource';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, RequestSignal, Route, Stream } from 'toolkit';
import { CuttingProxy } from './support/cutting-proxy.js';

/** The reconnection delay the streams give their client (ms). */
const RETRY = 100;
const probe = { ticks: 0, slow: 0, posted: 0 };

@Controller()
class TickController {
  @Route('/posted', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *posted(): AsyncGenerator<string | NestMessageEvent> {
    probe.posted += 1;
    yield { data: 'posted 1', retry: RETRY };
    for (let i = 2; i <= 5; i += 1) yield `posted ${i}`;
  }

  @Route('/mine', { methods: ['POST'] })
  @Stream({ resumable: { owner: 'session' } })
  async *mine(): AsyncGenerator<string | NestMessageEvent> {
    yield { data: 'mine 1', retry: RETRY };
    yield 'mine 2';
  }

  @Route('/ticks')
  @Stream({ resumable: true })
  async *ticks(): AsyncGenerator<string | NestMessageEvent> {
    probe.ticks += 1;
    yield { data: 'tick 1', retry: RETRY };
    for (let i = 2; i <= 5; i += 1) yield `tick ${i}`;
  }

  @Route('/slow')
  @Stream({ resumable: true })
  async *slow(@RequestSignal() signal: AbortSignal): AsyncGenerator<string | NestMessageEvent> {
    probe.slow += 1;
    yield { data: 'slow 1', retry: RETRY };
    for (let i = 2; i <= 1000; i += 1) {
      await sleep(20, undefined, { signal });
      yield `slow ${i}`;
    }
  }
}

/** What one `EventSource` saw. */
interface Seen {
  messages: string[];
  /** `event: error` frames from the server (their data). */
  serverErrors: string[];
  /** Connection failures the client reported (their HTTP code). */
  failures: (number | undefined)[];
  lastEventIds: string[];
}

function watch(source: EventSource): Seen {
  const seen: Seen = { messages: [], serverErrors: [], failures: [], lastEventIds: [] };
  source.addEventListener('message', (event) => {
    seen.messages.push(String(event.data));
    seen.lastEventIds.push(event.lastEventId);
  });
  source.addEventListener('error', (event: Event) => {
    if ('data' in event) seen.serverErrors.push(String(event.data));
    else seen.failures.push((event as Event & { code?: number }).code);
  });
  return seen;
}

/** Waits for `condition`, checking every reconnect interval, for at most `limit` intervals. */
async function until(condition: () => boolean, what: string, limit = 100): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (condition()) return;
    await sleep(RETRY);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('an EventSource on a resumable stream that is over gets 204 and stops', () => {
  const app = new App({ controllers: [TickController], logger: false, cwd: '/nonexistent' });
  let base: string;
  let proxy: CuttingProxy;

  beforeAll(async () => {
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  beforeAll(async () => void (proxy = await CuttingProxy.start(base)));
  afterAll(() => proxy.close());

  it('runs a finished stream once: one reconnect after the end, answered 204, then CLOSED', async () => {
    const before = proxy.requests;
    const source = new EventSource(`${proxy.url}/ticks`);
    try {
      const seen = watch(source);
      await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
      // Ten more reconnect intervals: a client told to go on would have come back by now.
      await sleep(RETRY * 10);
      expect(seen.messages).toEqual(['tick 1', 'tick 2', 'tick 3', 'tick 4', 'tick 5']);
      // The end of the stream (the client announces it will reconnect), then the 204.
      expect(seen.failures).toEqual([undefined, 204]);
      expect(source.readyState).toBe(EventSource.CLOSED);
      expect(probe.ticks).toBe(1);
      expect(proxy.requests - before).toBe(2);
    } finally {
      source.close();
    }
  });

  it('follows a POST-started stream with GET /streams/:id, then gets 204 and closes', async () => {
    const started = await fetch(`${base}/posted`, { method: 'POST', body: '{}' });
    const streamId = started.headers.get('x-stream-id') ?? '';
    await started.text();
    const before = proxy.requests;
    const source = new EventSource(`${proxy.url}/streams/${streamId}`);
    try {
      const seen = watch(source);
      await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
      await sleep(RETRY * 10);
      expect(seen.messages).toEqual(['posted 1', 'posted 2', 'posted 3', 'posted 4', 'posted 5']);
      expect(seen.lastEventIds.at(-1)).toBe(`${streamId}.5`);
      expect(seen.failures).toEqual([undefined, 204]);
      expect(probe.posted).toBe(1);
      expect(proxy.requests - before).toBe(2);
    } finally {
      source.close();
    }
  });

  it('follows a session-owned stream only for its session', async () => {
    const started = await fetch(`${base}/mine`, { method: 'POST', body: '{}' });
    const streamId = started.headers.get('x-stream-id') ?? '';
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    await started.text();
    expect(cookie).toContain('=');
    const stranger = new EventSource(`${base}/streams/${streamId}`);
    const owner = new EventSource(`${base}/streams/${streamId}`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, cookie } }),
    });
    try {
      const strangerSaw = watch(stranger);
      const ownerSaw = watch(owner);
      await until(
        () => stranger.readyState === EventSource.CLOSED && owner.readyState === EventSource.CLOSED,
        'both clients to close',
      );
      expect([strangerSaw.messages, strangerSaw.failures]).toEqual([[], [404]]);
      expect([ownerSaw.messages, ownerSaw.failures]).toEqual([
        ['mine 1', 'mine 2'],
        [undefined, 204],
      ]);
    } finally {
      stranger.close();
      owner.close();
    }
  });

  it('tells a cancelled stream once; the reconnect after the error gets 204', async () => {
    const before = proxy.requests;
    const source = new EventSource(`${proxy.url}/slow`);
    try {
      const seen = watch(source);
      await until(() => seen.messages.length >= 3, 'three events');
      const streamId = seen.lastEventIds[0]?.split('.')[0] ?? '';
      const cancel = await fetch(`${base}/streams/${streamId}`, { method: 'DELETE' });
      expect(cancel.status).toBe(204);
      await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
      await sleep(RETRY * 10);
      expect(seen.serverErrors).toEqual([JSON.stringify({ error: 'The stream was cancelled' })]);
      expect(seen.failures).toEqual([undefined, 204]);
      expect(seen.messages.length).toBeLessThan(1000);
      expect(seen.messages).toEqual(
        Array.from({ length: seen.messages.length }, (_, i) => `slow ${i + 1}`),
      );
      expect(source.readyState).toBe(EventSource.CLOSED);
      expect(probe.slow).toBe(1);
      expect(proxy.requests - before).toBe(2);
    } finally {
      source.close();
    }
  });
});
