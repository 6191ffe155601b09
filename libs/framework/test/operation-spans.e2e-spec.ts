/**
 * The spans `@Cache` and resumable streams make inside a request, with the real OpenTelemetry
 * SDK: the lookup's hit or miss, the store write, a recorded stream replayed, a request waiting
 * for the identical one already running, and a reconnect's first read of the stream log.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { Controller } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, Arg, Cache, Route, Stream } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import {
  parentId,
  recordSpans,
  type SpanRecorder,
} from '../../providers/test/support/span-recorder.js';

const runs = { slow: 0 };

@Controller()
class SpannedController {
  @Route('/words', { methods: ['POST'] })
  @Stream()
  @Cache({ ttl: 30 })
  async *words(@Arg('text') text: string) {
    for (const word of text.split(' ')) yield word;
  }

  @Route('/slow', { methods: ['POST'] })
  @Cache({ ttl: 30 })
  async slow(@Arg('n', { type: 'integer' }) n: number) {
    runs.slow += 1;
    await sleep(200);
    return { n };
  }

  @Route('/story', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *story() {
    for (let i = 1; i <= 4; i += 1) yield `part ${i}`;
  }
}

describe('spans of @Cache and resumable streams', () => {
  const app = new App({ controllers: [SpannedController], logger: false, cwd: '/nonexistent' });
  const client = new TestClient(app);
  let recorder: SpanRecorder;
  beforeAll(async () => {
    recorder = await recordSpans();
  });
  afterAll(async () => {
    await app.close();
    await recorder.uninstall();
  });

  it('a streamed route: a miss and its write, then a hit replayed as one span', async () => {
    recorder.reset();
    const miss = await recorder.withinParent(() =>
      client.post('/words', { json: { text: 'one two three' } }),
    );
    expect(miss.value.headers['x-cache']).toBe('MISS');
    const [firstGet] = recorder.named('toolkit.cache.get');
    const [set] = recorder.named('toolkit.cache.set');
    expect(firstGet.attributes).toMatchObject({
      'toolkit.cache.hit': false,
      'toolkit.cache.backend': 'memory',
    });
    expect(set.attributes).toMatchObject({ 'toolkit.cache.ttl': 30 });
    expect(parentId(firstGet)).toBe(miss.parent.spanContext().spanId);
    expect(recorder.named('toolkit.cache.replay')).toEqual([]);

    recorder.reset();
    const hit = await recorder.withinParent(() =>
      client.post('/words', { json: { text: 'one two three' } }),
    );
    expect(hit.value.headers['x-cache']).toBe('HIT');
    expect(hit.value.events().map((event) => event.data)).toEqual(['one', 'two', 'three']);
    const [get] = recorder.named('toolkit.cache.get');
    const [replay] = recorder.named('toolkit.cache.replay');
    expect(get.attributes['toolkit.cache.hit']).toBe(true);
    expect(replay.kind).toBe(SpanKind.INTERNAL);
    expect(replay.attributes).toMatchObject({
      'toolkit.cache.chunks': 3,
      'toolkit.cache.backend': 'memory',
    });
    expect(parentId(replay)).toBe(hit.parent.spanContext().spanId);
    expect(recorder.named('toolkit.cache.set')).toEqual([]);
  });

  it('a request joining the identical one already running waits in a span of its own', async () => {
    recorder.reset();
    const before = runs.slow;
    const { value: answers } = await recorder.withinParent(() =>
      Promise.all([
        client.post('/slow', { json: { n: 7 } }),
        client.post('/slow', { json: { n: 7 } }),
        client.post('/slow', { json: { n: 7 } }),
      ]),
    );
    expect(runs.slow - before).toBe(1);
    expect(answers.map((answer) => answer.json())).toEqual([{ n: 7 }, { n: 7 }, { n: 7 }]);
    const waits = recorder.named('toolkit.cache.wait');
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait.attributes['toolkit.cache.backend']).toBe('memory');
    expect(recorder.named('toolkit.cache.set')).toHaveLength(1);
  });

  it('a reconnect with Last-Event-ID reads the log in one resume span', async () => {
    recorder.reset();
    const first = await client.post('/story', { json: {} });
    const id = String(first.headers['x-stream-id']);
    expect(first.events()).toHaveLength(4);
    const [create] = recorder.named('toolkit.stream_log.create');
    expect(create.attributes['toolkit.stream_log.backend']).toBe('memory');
    expect(recorder.named('toolkit.stream_log.resume')).toEqual([]);

    recorder.reset();
    const again = await recorder.withinParent(() =>
      client.post('/story', { json: {}, headers: { 'last-event-id': `${id}.2` } }),
    );
    expect(again.value.events().map((event) => event.data)).toEqual(['part 3', 'part 4']);
    const resumes = recorder.named('toolkit.stream_log.resume');
    expect(resumes).toHaveLength(1);
    expect(resumes[0].attributes).toMatchObject({
      'toolkit.stream_log.backend': 'memory',
      'toolkit.stream_log.position': 2,
      'toolkit.stream_log.found': true,
      // Entries from position 2 on: part 2, part 3, part 4 and the end.
      'toolkit.stream_log.entries': 4,
    });
    expect(parentId(resumes[0])).toBe(again.parent.spanContext().spanId);
    expect(JSON.stringify(resumes[0].attributes)).not.toContain(id);
  });
});
