import { afterAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { from } from 'rxjs';
import { App, Arg, Cache, Route, Stream } from 'toolkit';
import { TestClient } from 'toolkit/testing';

const runs = { summarize: 0, slow: 0, failing: 0, stream: 0, reversed: 0, observable: 0, big: 0 };

@Controller()
class CachedController {
  @Route('/summarize', { methods: ['POST'] })
  @Cache({ ttl: 1 })
  summarize(@Arg('text') text: string) {
    runs.summarize += 1;
    return { summary: text.slice(0, 5), run: runs.summarize };
  }

  @Route('/slow', { methods: ['POST'] })
  @Cache({ ttl: 30 })
  async slow(@Arg('n', { type: 'integer' }) n: number) {
    runs.slow += 1;
    await sleep(100);
    return { n };
  }

  @Route('/failing', { methods: ['POST'] })
  @Cache({ ttl: 30 })
  failing(@Arg('text') text: string) {
    runs.failing += 1;
    return [{ error: `cannot handle ${text}` }, 400];
  }

  @Route('/words', { methods: ['POST'] })
  @Stream()
  @Cache({ ttl: 30 })
  async *words(@Arg('text') text: string) {
    runs.stream += 1;
    for (const word of text.split(' ')) yield word;
  }

  // The same, with the decorators the other way round: on a stream, `@Cache` is a step of the
  // stream either way.
  @Route('/words-reversed', { methods: ['POST'] })
  @Cache({ ttl: 30 })
  @Stream()
  async *wordsReversed(@Arg('text') text: string) {
    runs.reversed += 1;
    for (const word of text.split(' ')) yield word;
  }

  @Route('/big', { methods: ['POST'] })
  @Stream({ maxPendingBytes: 1000 })
  @Cache({ ttl: 30 })
  async *big() {
    runs.big += 1;
    for (let i = 0; i < 20; i += 1) yield 'x'.repeat(100);
  }

  @Cache({ ttl: 30 })
  @Stream()
  @Route('/events', { methods: ['POST'] })
  events(@Arg('n', { type: 'integer' }) n: number) {
    runs.observable += 1;
    return from(Array.from({ length: n }, (_, i) => ({ data: `event ${i}`, type: 'tick' })));
  }
}

describe('@Cache on the memory backend', () => {
  const app = new App({ controllers: [CachedController], logger: false, cwd: '/nonexistent' });
  const client = new TestClient(app);
  afterAll(async () => {
    await app.close();
  });

  it('serves an identical second call from the cache and misses on other parameters', async () => {
    const first = await client.post('/summarize', { json: { text: 'hello world' } });
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await client.post('/summarize', { json: { text: 'hello world' } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.json()).toEqual(first.json());
    expect(runs.summarize).toBe(1);

    const other = await client.post('/summarize', { json: { text: 'another text' } });
    expect(other.headers['x-cache']).toBe('MISS');
    expect(runs.summarize).toBe(2);

    await sleep(1200);
    const expired = await client.post('/summarize', { json: { text: 'hello world' } });
    expect(expired.headers['x-cache']).toBe('MISS');
    expect(runs.summarize).toBe(3);
  });

  it('runs the handler once for 20 concurrent identical first calls', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client.post('/slow', { json: { n: 7 } })),
    );
    expect(runs.slow).toBe(1);
    expect(answers.every((a) => a.statusCode === 200 && a.json<{ n: number }>().n === 7)).toBe(
      true,
    );
    expect(answers.filter((a) => a.headers['x-cache'] === 'MISS')).toHaveLength(1);
  });

  it('does not cache non-2xx results', async () => {
    await client.post('/failing', { json: { text: 'x' } });
    const again = await client.post('/failing', { json: { text: 'x' } });
    expect(again.statusCode).toBe(400);
    expect(again.headers['x-cache']).toBe('MISS');
    expect(runs.failing).toBe(2);
  });

  it('records a stream and replays it as the same SSE events', async () => {
    const first = await client.post('/words', { json: { text: 'one two three' } });
    const second = await client.post('/words', { json: { text: 'one two three' } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text()).toBe(first.text());
    expect(second.events().map((e) => e.data)).toEqual(['one', 'two', 'three']);
    expect(runs.stream).toBe(1);
  });

  it('records and replays whichever order @Stream and @Cache are written in', async () => {
    const first = await client.post('/words-reversed', { json: { text: 'a b' } });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const second = await client.post('/words-reversed', { json: { text: 'a b' } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text()).toBe(first.text());
    expect(runs.reversed).toBe(1);
  });

  it('serves a stream larger than its bound in full but does not store it', async () => {
    const first = await client.post('/big');
    expect(first.events()).toHaveLength(20);
    const second = await client.post('/big');
    expect(second.headers['x-cache']).toBe('MISS');
    expect(second.events()).toHaveLength(20);
    expect(runs.big).toBe(2);
  });

  it('replays an Observable of MessageEvents with the same types and ids', async () => {
    const first = await client.post('/events', { json: { n: 3 } });
    const second = await client.post('/events', { json: { n: 3 } });
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.events()).toEqual(first.events());
    expect(first.events()[2]).toEqual({ event: 'tick', data: 'event 2', id: '3' });
    expect(runs.observable).toBe(1);
    const invalid = await client.post('/events', { json: { n: 'three' } });
    expect(invalid.statusCode).toBe(422);
    expect(runs.observable).toBe(1);
  });

  it('caches functional routes with the cache option', async () => {
    let calls = 0;
    const fn = new App({ logger: false, cwd: '/nonexistent' });
    fn.route(
      '/summarize',
      { methods: ['POST'], params: { text: 'string' }, cache: { ttl: 5 } },
      ({ text }) => {
        calls += 1;
        return { summary: text.toUpperCase() };
      },
    );
    const fnClient = new TestClient(fn);
    await fnClient.post('/summarize', { json: { text: 'abc' } });
    const hit = await fnClient.post('/summarize', { json: { text: 'abc' } });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.json()).toEqual({ summary: 'ABC' });
    expect(calls).toBe(1);
    await fn.close();
  });

  it('turns every cache off with cache.enabled: false', async () => {
    let calls = 0;
    const off = new App({
      logger: false,
      cwd: '/nonexistent',
      config: { cache: { enabled: false } },
    });
    off.route('/x', { cache: true }, () => ({ calls: ++calls }));
    const offClient = new TestClient(off);
    await offClient.get('/x');
    const second = await offClient.get('/x');
    expect(second.headers['x-cache']).toBeUndefined();
    expect(second.json()).toEqual({ calls: 2 });
    await off.close();
  });
});
