/**
 * Every `@Stream()` route takes one entry, the stream's interceptor in Nest's pipeline, whatever
 * else it has (`@Cache`, interceptors of its own, resumable, Nest's `@SseSignal()`); no method of
 * a controller is replaced. These tests pin down that it answers alike on all of them and keeps
 * what Nest gives any route: metadata for guards, class and global interceptors, errors before
 * the first event as JSON, the heartbeat while an async handler works, refusal during shutdown,
 * and the method callable as itself.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Injectable,
  SetMetadata,
  SseSignal,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { tap, type Observable } from 'rxjs';
import { Cache, Route, Stream } from 'toolkit';
import { ServiceUnavailableError } from 'toolkit/providers';
import { createTestingApp, type TestingApp } from 'toolkit/testing';
import { StreamRegistry } from '../src/sse/stream-registry.js';

const seen = { global: [] as unknown[], byClass: [] as unknown[], calls: 0 };

async function* letters(): AsyncGenerator<string> {
  yield 'a';
  yield 'b';
}

/** Records what a stream route's pipeline hands back, as a logging interceptor would. */
@Injectable()
class GlobalRecorder implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(tap((value) => seen.global.push(value)));
  }
}

class ClassRecorder implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(tap((value) => seen.byClass.push(value)));
  }
}

class Tag implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

/** Lets a request through only when its handler carries `role: 'open'`. */
@Injectable()
class RoleGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    return this.reflector.get<string>('role', context.getHandler()) === 'open';
  }
}

@Controller()
class StreamsController {
  @Route('/plain', { methods: ['POST'] })
  @Stream()
  plain(): AsyncGenerator<string> {
    seen.calls += 1;
    return letters();
  }

  @Route('/cached', { methods: ['POST'] })
  @Stream()
  @Cache({ ttl: 60 })
  cached(): AsyncGenerator<string> {
    return letters();
  }

  @Route('/tagged', { methods: ['POST'] })
  @UseInterceptors(Tag)
  @Stream()
  tagged(): AsyncGenerator<string> {
    return letters();
  }

  @Route('/resumable', { methods: ['POST'] })
  @Stream({ resumable: true })
  resumable(): AsyncGenerator<string> {
    return letters();
  }

  @Route('/nest-signal', { methods: ['POST'] })
  @Stream()
  nestSignal(@SseSignal() _signal: AbortSignal): AsyncGenerator<string> {
    return letters();
  }

  @Route('/open', { methods: ['POST'] })
  @Stream()
  @SetMetadata('role', 'open')
  @UseGuards(RoleGuard)
  open(): AsyncGenerator<string> {
    return letters();
  }

  @Route('/closed', { methods: ['POST'] })
  @Stream()
  @SetMetadata('role', 'closed')
  @UseGuards(RoleGuard)
  closed(): AsyncGenerator<string> {
    return letters();
  }

  @Route('/slow', { methods: ['POST'] })
  @Stream({ heartbeat: 0.05 })
  async slow(): Promise<AsyncGenerator<string>> {
    await sleep(180);
    return letters();
  }

  @Route('/throws', { methods: ['POST'] })
  @Stream()
  throws(): AsyncGenerator<string> {
    throw new ServiceUnavailableError('Upstream is down');
  }

  @Route('/rejects', { methods: ['POST'] })
  @Stream()
  async rejects(): Promise<AsyncGenerator<string>> {
    await sleep(1);
    throw new ServiceUnavailableError('Upstream is down');
  }
}

@Controller('class')
@UseInterceptors(ClassRecorder)
class RecordedController {
  @Route('/plain', { methods: ['POST'] })
  @Stream()
  plain(): AsyncGenerator<string> {
    return letters();
  }
}

const LETTERS = ['a', 'b'];

describe('@Stream() routes, all through the one entry', () => {
  let testing: TestingApp;
  beforeAll(async () => {
    testing = await createTestingApp({
      controllers: [StreamsController, RecordedController],
      providers: [RoleGuard, { provide: APP_INTERCEPTOR, useClass: GlobalRecorder }],
    });
  });
  afterAll(() => testing.close());

  it('replaces no method of a controller, and answers every kind of stream route alike', async () => {
    for (const controller of [StreamsController, RecordedController]) {
      const instance = testing.module.get<object>(controller);
      expect(
        Object.getOwnPropertyNames(instance).filter((name) => name in controller.prototype),
      ).toEqual([]);
    }
    for (const path of ['/plain', '/cached', '/tagged', '/resumable', '/nest-signal']) {
      const res = await testing.client.post(path);
      expect([path, res.statusCode]).toEqual([path, 200]);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(res.events().map((event) => event.data)).toEqual(LETTERS);
    }
  });

  it('leaves the method callable as itself', async () => {
    const calls = seen.calls;
    const chunks: string[] = [];
    for await (const chunk of testing.module.get(StreamsController).plain()) chunks.push(chunk);
    expect(chunks).toEqual(LETTERS);
    expect(seen.calls).toBe(calls + 1);
  });

  it("keeps the method's metadata for guards", async () => {
    const open = await testing.client.post('/open');
    expect(open.events().map((event) => event.data)).toEqual(LETTERS);
    const closed = await testing.client.post('/closed');
    expect(closed.statusCode).toBe(403);
    expect(closed.headers['content-type']).toMatch(/^application\/json/);
  });

  it('hands global and class interceptors undefined once the stream is over, as before', async () => {
    seen.global.length = 0;
    seen.byClass.length = 0;
    const res = await testing.client.post('/class/plain');
    expect(res.events().map((event) => event.data)).toEqual(LETTERS);
    expect(seen.global).toEqual([undefined]);
    expect(seen.byClass).toEqual([undefined]);
  });

  it('sends heartbeats, and with them the headers, while an async handler is still working', async () => {
    const res = await testing.client.post('/slow');
    expect(res.statusCode).toBe(200);
    expect(res.text()).toMatch(/^: ping\n\n(: ping\n\n)*event: message\ndata: a\n\n/);
  });

  it('answers a handler that throws, or rejects, before any event with its status and JSON', async () => {
    for (const path of ['/throws', '/rejects']) {
      const res = await testing.client.post(path);
      expect([path, res.statusCode]).toEqual([path, 503]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ error: 'Upstream is down' });
    }
  });

  it('refuses a new stream once shutdown began, without calling the handler', async () => {
    const calls = seen.calls;
    await testing.module.get(StreamRegistry).drain(0);
    const res = await testing.client.post('/plain');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'The server is shutting down' });
    expect(seen.calls).toBe(calls);
  });
});
