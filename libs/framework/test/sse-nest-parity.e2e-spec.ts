/**
 * `@Stream()` speaks Nest's `@Sse()` contract: for the same `MessageEvent`s a standard SSE parser
 * reads the same events (type, id, retry, data) from both, whether the source is an Observable or
 * an async generator; toolkit adds its extras (headers held until the first event, `event: error`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, Sse, type MessageEvent } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { from, type Observable } from 'rxjs';
import { App, Route, Stream } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { testAdapter } from '../../../test/support/platform.js';

const EVENTS: MessageEvent[] = [
  { data: 'plain' },
  { data: { tool: 'calculator', args: { a: 2 } }, type: 'tool-call' },
  { data: 'line one\nline two\r\nline three' },
  { data: 'explicit id', id: 'custom-7' },
  { data: 'after an explicit id' },
  { data: 'with retry', retry: 2500 },
  { data: 'typed and commented', type: 'note', comment: 'a comment' },
  { data: '' },
  { data: 'last' },
];

@Controller()
class NestSseController {
  @Sse('/events')
  events(): Observable<MessageEvent> {
    return from(EVENTS);
  }
}

@Module({ controllers: [NestSseController] })
class NestSseModule {}

@Controller()
class ToolkitSseController {
  @Route('/events')
  @Stream()
  events(): Observable<MessageEvent> {
    return from(EVENTS);
  }

  @Route('/generated')
  @Stream()
  async *generated(): AsyncGenerator<MessageEvent> {
    for (const event of EVENTS) yield event;
  }
}

describe('@Stream() and Nest @Sse() read the same', () => {
  const app = new App({ controllers: [ToolkitSseController], logger: false, cwd: '/nonexistent' });
  const toolkit = new TestClient(app);
  let nest: TestClient;
  let closeNest: () => Promise<void>;
  beforeAll(async () => {
    const bare = await NestFactory.create(NestSseModule, testAdapter(), { logger: false });
    await bare.init();
    nest = new TestClient(bare);
    closeNest = () => bare.close();
  });
  afterAll(async () => {
    await app.close();
    await closeNest();
  });

  it('gives a parser identical events from an Observable of MessageEvents', async () => {
    const expected = (await nest.get('/events')).events();
    expect(expected).toHaveLength(EVENTS.length);
    expect(expected[1]).toEqual({
      event: 'tool-call',
      data: '{"tool":"calculator","args":{"a":2}}',
      id: '2',
    });
    expect(expected[5]).toMatchObject({ data: 'with retry', retry: 2500 });
    const res = await toolkit.get('/events');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.events()).toEqual(expected);
  });

  it('gives the same events from an async generator', async () => {
    const expected = (await nest.get('/events')).events();
    expect((await toolkit.get('/generated')).events()).toEqual(expected);
  });
});
