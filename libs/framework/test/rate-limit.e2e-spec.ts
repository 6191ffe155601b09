/**
 * `@RateLimit()` and the caps on resumable producers, on Nest's public seams (a decorator that
 * records metadata, a guard that reads it): 429 + Retry-After past the limits of toolkit.yaml's
 * `limits:` section or the decorator's own, per caller and per address, shared by every instance
 * on a Redis cache backend; a resumption is not counted; `@RateLimit(false)` exempts a route.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  App,
  Arg,
  RateLimit,
  RequestSignal,
  Route,
  Stream,
  type ToolkitConfigInput,
} from 'toolkit';
import { TestClient } from 'toolkit/testing';

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Holds `/story` after its first event until the test lets it go on. */
const gate = { started: deferred(), release: deferred() };

@Controller()
@RateLimit()
class LimitedController {
  @Route('/ask', { methods: ['POST'] })
  ask(@Arg('q') q: string) {
    return { q };
  }

  @Route('/pricey', { methods: ['POST'] })
  @RateLimit({ session: 1, address: 0, bucket: 'pricey' })
  pricey() {
    return { ok: true };
  }

  @Route('/free', { methods: ['GET'] })
  @RateLimit(false)
  free() {
    return { ok: true };
  }

  @Route('/story', { methods: ['POST'] })
  @Stream({ resumable: { owner: 'session' } })
  async *story(@RequestSignal() signal: AbortSignal): AsyncGenerator<string> {
    yield 'part 1';
    gate.started.resolve();
    await Promise.race([gate.release.promise, sleep(60_000, undefined, { signal })]);
    yield 'part 2';
  }
}

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function client(config: ToolkitConfigInput): TestClient {
  const app = new App({
    logger: false,
    cwd: '/nonexistent',
    controllers: [LimitedController],
    config,
  });
  apps.push(app);
  return new TestClient(app);
}

/** The session cookie a first answer set. */
function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = res.headers['set-cookie'];
  return String(Array.isArray(set) ? set[0] : set).split(';')[0];
}

describe('@RateLimit()', () => {
  it('answers 429 with Retry-After past limits.session_requests, per session', async () => {
    const http = client({ limits: { session_requests: 2, address_requests: 0, window: 30 } });
    const first = await http.post('/ask', { json: { q: 'a' } });
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    const cookie = cookieOf(first);
    expect((await http.post('/ask', { json: { q: 'a' }, headers: { cookie } })).statusCode).toBe(
      200,
    );
    const refused = await http.post('/ask', { json: { q: 'a' }, headers: { cookie } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: expect.stringMatching(
        /^Rate limit exceeded for this session: at most 2 requests per 30 s/,
      ),
      retry_after: expect.any(Number),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(30);
    // A new session (no cookie) starts its own count.
    expect((await http.post('/ask', { json: { q: 'a' } })).statusCode).toBe(200);
  });

  it('counts per address whatever the session, keeps buckets apart and exempts @RateLimit(false)', async () => {
    const http = client({ limits: { session_requests: 0, address_requests: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await http.post('/ask', { json: { q: 'a' } })).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    // Its own bucket and limits: one a session, no address limit.
    const pricey = await http.post('/pricey');
    expect(pricey.statusCode).toBe(200);
    const again = await http.post('/pricey', { headers: { cookie: cookieOf(pricey) } });
    expect(again.statusCode).toBe(429);
    for (let i = 0; i < 5; i += 1) expect((await http.get('/free')).statusCode).toBe(200);
  });

  it('is off with limits of 0', async () => {
    const http = client({ limits: { session_requests: 0, address_requests: 0 } });
    for (let i = 0; i < 30; i += 1) {
      expect((await http.post('/ask', { json: { q: 'a' } })).statusCode).toBe(200);
    }
  });

  it('shares the counts between instances on a Redis cache backend', async () => {
    const prefix = `rate-limit-test:${process.pid}:${Date.now()}:`;
    const config: ToolkitConfigInput = {
      cache: { backend: 'redis', key_prefix: prefix },
      limits: { session_requests: 0, address_requests: 3 },
    };
    const [one, two] = [client(config), client(config)];
    const statuses = [];
    for (const http of [one, two, one, two]) {
      statuses.push((await http.post('/ask', { json: { q: 'a' } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('resumable producers per session', () => {
  it('refuses one more than limits.streams_per_session at once with 429 and Retry-After', async () => {
    const http = client({ limits: { streams_per_session: 1 } });
    const first = await http.post('/ask', { json: { q: 'a' } });
    const cookie = cookieOf(first);
    const running = http.post('/story', { headers: { cookie } });
    await gate.started.promise;
    const second = await http.post('/story', { headers: { cookie } });
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('5');
    expect(second.json()).toEqual({
      error: expect.stringMatching(
        /^Too many answers in progress for this session: at most 1 at once/,
      ),
    });
    gate.release.resolve();
    expect((await running).statusCode).toBe(200);
    // Once it ended, the session may start another.
    expect((await http.post('/story', { headers: { cookie } })).statusCode).toBe(200);
  });
});
