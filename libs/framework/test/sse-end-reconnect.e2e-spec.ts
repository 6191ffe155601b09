/**
 * The `eventsource` package (the WHATWG `EventSource` for Node) on plain, non-resumable `@Stream()`
 * routes: an `EventSource` reconnects once a stream is over, which used to run the handler again
 * (for an LLM route, a new paid model call every few seconds). A plain GET stream now closes with
 * an id-only frame, `id: toolkit-end.<events>`: the client takes that id silently, its reconnect
 * carries it as `Last-Event-ID`, and every `@Stream()` route answers it 204 before running
 * anything, which makes the client stop. Over ten reconnect intervals the handler runs once and the
 * client makes exactly one request after the end. Run on both platforms (the `fastify` project
 * runs this file again), on the direct path and through Nest's interceptor pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';
import {
  Controller,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type MessageEvent as NestMessageEvent,
  type NestInterceptor,
} from '@nestjs/common';
import { EventSource } from 'eventsource';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { from, type Observable } from 'rxjs';
import { App, RateLimit, Route, Stream } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { CuttingProxy } from './support/cutting-proxy.js';

/** The reconnection delay the streams give their client (ms). */
const RETRY = 100;
const STREAM_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const runs = { direct: 0, intercepted: 0, passed: 0, fails: 0, resumable: 0, ui: 0, limited: 0 };

/** A method interceptor of the app's own: its route takes Nest's interceptor pipeline. */
@Injectable()
class PassInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    runs.passed += 1;
    return next.handle();
  }
}

const WORDS: (string | NestMessageEvent)[] = [{ data: 'word 1', retry: RETRY }, 'word 2', 'word 3'];

@Controller()
class WordsController {
  @Route('/direct')
  @Stream()
  async *direct(): AsyncGenerator<string | NestMessageEvent> {
    runs.direct += 1;
    yield* WORDS;
  }

  @Route('/intercepted')
  @UseInterceptors(PassInterceptor)
  @Stream()
  intercepted(): Observable<string | NestMessageEvent> {
    runs.intercepted += 1;
    return from(WORDS);
  }

  @Route('/fails')
  @Stream()
  async *fails(): AsyncGenerator<NestMessageEvent> {
    runs.fails += 1;
    yield { data: 'word 1', retry: RETRY };
    throw new Error('upstream broke');
  }

  @Route('/posted', { methods: ['POST'] })
  @Stream()
  async *posted(): AsyncGenerator<string> {
    yield 'posted';
  }

  @Route('/resumable')
  @Stream({ resumable: true })
  async *resumable(): AsyncGenerator<string> {
    runs.resumable += 1;
    yield 'kept';
  }

  @Route('/ui')
  @Stream({ format: 'ui-message' })
  async *ui(): AsyncGenerator<string> {
    runs.ui += 1;
    yield 'text';
  }
}

@Controller()
@RateLimit()
class LimitedController {
  @Route('/limited')
  @Stream()
  async *limited(): AsyncGenerator<NestMessageEvent> {
    runs.limited += 1;
    yield { data: 'once', retry: RETRY };
  }
}

/** What one `EventSource` saw, and the `Last-Event-ID` of each of its requests. */
interface Seen {
  messages: string[];
  /** `event: error` frames from the server (their data). */
  serverErrors: string[];
  /** Connection failures the client reported (their HTTP code). */
  failures: (number | undefined)[];
  /** `Last-Event-ID` of each request the client made (null: none). */
  sentIds: (string | null)[];
}

/** An `EventSource` on `url` and what it sees; its requests are observed, not changed. */
function open(url: string): { source: EventSource; seen: Seen } {
  const seen: Seen = { messages: [], serverErrors: [], failures: [], sentIds: [] };
  const source = new EventSource(url, {
    fetch: (input, init) => {
      seen.sentIds.push(new Headers(init?.headers).get('last-event-id'));
      return fetch(input, init);
    },
  });
  source.addEventListener('message', (event) => seen.messages.push(String(event.data)));
  source.addEventListener('error', (event: Event) => {
    if ('data' in event) seen.serverErrors.push(String(event.data));
    else seen.failures.push((event as Event & { code?: number }).code);
  });
  return { source, seen };
}

/** Waits for `condition`, checking every reconnect interval, for at most `limit` intervals. */
async function until(condition: () => boolean, what: string, limit = 100): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (condition()) return;
    await sleep(RETRY);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('an EventSource on a plain stream that ended gets 204 on its reconnect and stops', () => {
  const app = new App({
    controllers: [WordsController, LimitedController],
    logger: false,
    cwd: '/nonexistent',
    config: { limits: { session_requests: 0, address_requests: 1 } },
  });
  let base: string;
  let proxy: CuttingProxy;

  beforeAll(async () => {
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    proxy = await CuttingProxy.start(base);
  });
  afterAll(async () => {
    await proxy?.close();
    await app.close();
  });

  it.each([
    ['direct', '/direct'],
    ['intercepted', '/intercepted'],
  ] as const)(
    'runs the %s route once over ten reconnect intervals: one reconnect, answered 204, then CLOSED',
    async (route, path) => {
      const before = proxy.requests;
      const passedBefore = runs.passed;
      const { source, seen } = open(`${proxy.url}${path}`);
      try {
        await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
        // Ten more reconnect intervals: a client told to go on would have come back by now.
        await sleep(RETRY * 10);
        expect(seen.messages).toEqual(['word 1', 'word 2', 'word 3']);
        // The end of the stream (the client announces it will reconnect), then the 204.
        expect(seen.failures).toEqual([undefined, 204]);
        expect(seen.sentIds).toEqual([null, 'toolkit-end.3']);
        expect(source.readyState).toBe(EventSource.CLOSED);
        expect(runs[route]).toBe(1);
        expect(proxy.requests - before).toBe(2);
        expect(proxy.answers.slice(-2)).toEqual([`GET ${path} 200`, `GET ${path} 204`]);
        // The 204 came before the route's own interceptors (and its handler) ran.
        expect(runs.passed - passedBefore).toBe(route === 'intercepted' ? 1 : 0);
      } finally {
        source.close();
      }
    },
  );

  it('closes a stream that failed after its error event too: the error is told once', async () => {
    const before = proxy.requests;
    const { source, seen } = open(`${proxy.url}/fails`);
    try {
      await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
      await sleep(RETRY * 10);
      expect(seen.messages).toEqual(['word 1']);
      expect(seen.serverErrors).toEqual([JSON.stringify({ error: 'Internal Server Error' })]);
      expect(seen.failures).toEqual([undefined, 204]);
      expect(seen.sentIds).toEqual([null, 'toolkit-end.1']);
      expect(runs.fails).toBe(1);
      expect(proxy.requests - before).toBe(2);
    } finally {
      source.close();
    }
  });

  it('answers the end id given as ?lastEventId= (a reloaded page) with 204 at once', async () => {
    const directRuns = runs.direct;
    const { source, seen } = open(`${proxy.url}/direct?lastEventId=toolkit-end.3`);
    try {
      await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
      expect(seen.messages).toEqual([]);
      expect(seen.failures).toEqual([204]);
      expect(runs.direct).toBe(directRuns);
    } finally {
      source.close();
    }
  });

  it('answers the end id with 204 on every kind of @Stream route, running none', async () => {
    const before = { ...runs };
    for (const path of ['/direct', '/intercepted', '/fails', '/resumable', '/ui']) {
      const res = await fetch(`${base}${path}`, {
        headers: { 'last-event-id': 'toolkit-end.2' },
      });
      expect([path, res.status, await res.text()]).toEqual([path, 204, '']);
      expect(res.headers.get('content-type')).toBeNull();
    }
    const posted = await fetch(`${base}/posted`, {
      method: 'POST',
      headers: { 'last-event-id': 'toolkit-end' },
    });
    expect(posted.status).toBe(204);
    expect(runs).toEqual(before);
  });

  it('still refuses a malformed id on a resumable route, and resumes its own ids', async () => {
    const malformed = await fetch(`${base}/resumable`, {
      headers: { 'last-event-id': 'toolkit-endx' },
    });
    expect(malformed.status).toBe(400);
    await malformed.text();
    const started = await fetch(`${base}/resumable`);
    const streamId = started.headers.get('x-stream-id') ?? '';
    expect(await started.text()).toBe(`event: message\ndata: kept\nid: ${streamId}.1\n\n`);
    expect(streamId).toMatch(/^[\w-]{22}$/);
    const resumed = await fetch(`${base}/resumable`, {
      headers: { 'last-event-id': `${streamId}.0` },
    });
    expect(await resumed.text()).toBe(`event: message\ndata: kept\nid: ${streamId}.1\n\n`);
    const unknown = await fetch(`${base}/resumable`, {
      headers: { 'last-event-id': `${STREAM_ID}.1` },
    });
    expect(unknown.status).toBe(404);
    await unknown.text();
  });

  it('closes GET streams only: POST (fetch clients), resumable and ui-message streams are as before', async () => {
    const posted = await fetch(`${base}/posted`, { method: 'POST' });
    expect(await posted.text()).toBe('event: message\ndata: posted\n\n');
    const resumable = await fetch(`${base}/resumable`);
    expect(await resumable.text()).not.toContain('toolkit-end');
    const ui = await fetch(`${base}/ui`);
    expect(await ui.text()).not.toContain('toolkit-end');
  });

  it('gives @microsoft/fetch-event-source one message without data (as a : ping does), and it stops', async () => {
    // The client is written for browsers: it reaches timers through `window` and removes a
    // `document` listener at the end.
    const globals = globalThis as { window?: unknown; document?: unknown };
    globals.window = globalThis;
    globals.document = { addEventListener: () => undefined, removeEventListener: () => undefined };
    const before = proxy.requests;
    const received: EventSourceMessage[] = [];
    let closes = 0;
    try {
      await fetchEventSource(`${proxy.url}/direct`, {
        openWhenHidden: true,
        fetch: globalThis.fetch,
        onmessage: (message) => void received.push(message),
        onclose: () => void (closes += 1),
        onerror: (error: unknown) => {
          throw error;
        },
      });
    } finally {
      delete globals.window;
      delete globals.document;
    }
    expect(received.map(({ event, data, id }) => ({ event, data, id }))).toEqual([
      { event: 'message', data: 'word 1', id: '1' },
      { event: 'message', data: 'word 2', id: '' },
      { event: 'message', data: 'word 3', id: '' },
      { event: '', data: '', id: 'toolkit-end.3' },
    ]);
    // A clean end resolves: this client does not reconnect unless `onclose` throws.
    expect(closes).toBe(1);
    expect(proxy.requests - before).toBe(1);
  });

  it('reads the end frame as no event in the testing client', async () => {
    const res = await new TestClient(app).get('/direct');
    expect(res.text()).toMatch(
      /\nid: 1\n\n(event: message\ndata: word \d\n\n)+id: toolkit-end\.3\n\n$/,
    );
    expect(res.events()).toEqual([
      { event: 'message', data: 'word 1', id: '1', retry: RETRY },
      { event: 'message', data: 'word 2', id: '1' },
      { event: 'message', data: 'word 3', id: '1' },
    ]);
  });

  it('does not count the reconnect after the end against a rate limit', async () => {
    const { source, seen } = open(`${proxy.url}/limited`);
    try {
      await until(() => source.readyState === EventSource.CLOSED, 'the client to close');
      expect([seen.messages, seen.failures]).toEqual([['once'], [undefined, 204]]);
    } finally {
      source.close();
    }
    // The limit is one stream per address: the first used it, the reconnect did not.
    const again = await fetch(`${base}/limited`);
    expect(again.status).toBe(429);
    await again.text();
    expect(runs.limited).toBe(1);
  });
});
