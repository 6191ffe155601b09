/**
 * `@Cache` on a `@Stream()` route is a step of the stream's own pipeline: it records and replays
 * on the async iterator the stream walks, resumable streams included; on a hit neither the handler
 * nor the method's own interceptors run; an Observable that overruns its bound inside it fails the
 * stream and is not stored; a stream the client leaves is not stored either.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { from, type Observable } from 'rxjs';
import { App, Arg, Cache, RequestSignal, Route, Stream } from 'toolkit';
import { TestClient } from 'toolkit/testing';

const runs = { resumable: 0, intercepted: 0, interceptor: 0, overrun: 0, left: 0 };
/** Settles once the first `/left` stream's generator has run its `finally`. */
let leftReleased: () => void = () => undefined;
const firstLeftReleased = new Promise<void>((resolve) => (leftReleased = resolve));

@Injectable()
class CountingInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    runs.interceptor += 1;
    return next.handle();
  }
}

@Controller()
class CachedStreams {
  @Route('/resumable', { methods: ['POST'] })
  @Stream({ resumable: true })
  @Cache({ ttl: 30 })
  async *resumable(@Arg('text') text: string): AsyncGenerator<string> {
    runs.resumable += 1;
    for (const word of text.split(' ')) yield word;
  }

  @Route('/intercepted', { methods: ['POST'] })
  @UseInterceptors(CountingInterceptor)
  @Cache({ ttl: 30 })
  @Stream()
  async *intercepted(@Arg('text') text: string): AsyncGenerator<string> {
    runs.intercepted += 1;
    yield* text.split(' ');
  }

  @Route('/left', { methods: ['POST'] })
  @Stream()
  @Cache({ ttl: 30 })
  async *left(@RequestSignal() signal: AbortSignal): AsyncGenerator<string> {
    runs.left += 1;
    const first = runs.left === 1;
    try {
      yield 'one';
      // The first client leaves here; the stream would otherwise go on until it does.
      if (first && !signal.aborted) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      }
      yield 'two';
    } finally {
      if (first) leftReleased();
    }
  }

  @Route('/overrun', { methods: ['POST'] })
  @Stream({ maxPendingBytes: 1000 })
  @Cache({ ttl: 30 })
  overrun(): Observable<string> {
    runs.overrun += 1;
    // 5,000 bytes at once: more than the bound lets wait unread.
    return from(Array.from({ length: 50 }, () => 'x'.repeat(100)));
  }
}

describe('@Cache as a step of the stream pipeline', () => {
  const app = new App({ controllers: [CachedStreams], logger: false, cwd: '/nonexistent' });
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('records a resumable stream and replays it, as a resumable stream again', async () => {
    const first = await client.post('/resumable', { json: { text: 'red green blue' } });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['x-stream-id']).toEqual(expect.any(String));
    const second = await client.post('/resumable', { json: { text: 'red green blue' } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers['x-stream-id']).toEqual(expect.any(String));
    expect(second.headers['x-stream-id']).not.toBe(first.headers['x-stream-id']);
    expect(second.events().map((e) => e.data)).toEqual(['red', 'green', 'blue']);
    expect(runs.resumable).toBe(1);
  });

  it("runs the method's own interceptor on a miss, and neither it nor the handler on a hit", async () => {
    const first = await client.post('/intercepted', { json: { text: 'a b c' } });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(runs).toMatchObject({ intercepted: 1, interceptor: 1 });
    const second = await client.post('/intercepted', { json: { text: 'a b c' } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text()).toBe(first.text());
    expect(runs).toMatchObject({ intercepted: 1, interceptor: 1 });
  });

  it('fails a stream whose Observable overran its bound, and stores nothing of it', async () => {
    const first = await client.post('/overrun');
    const events = first.events();
    expect(events.at(-1)?.event).toBe('error');
    expect(events.filter((e) => e.event !== 'error').length).toBeLessThan(50);
    const second = await client.post('/overrun');
    expect(second.headers['x-cache']).toBe('MISS');
    expect(runs.overrun).toBe(2);
  });

  it('stores nothing of a stream whose client left before its end', async () => {
    const server: Server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/left`;
    const leave = new AbortController();
    const res = await fetch(url, { method: 'POST', signal: leave.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: one');
    leave.abort();
    await firstLeftReleased;
    const again = await client.post('/left');
    expect(again.headers['x-cache']).toBe('MISS');
    expect(again.events().map((e) => e.data)).toEqual(['one', 'two']);
    const third = await client.post('/left');
    expect(third.headers['x-cache']).toBe('HIT');
    expect(runs.left).toBe(2);
  });
});
