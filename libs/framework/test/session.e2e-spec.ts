import { afterAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Injectable,
  Req,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { App, Route, Session, SESSION_COOKIE } from 'toolkit';
import { TestClient, type TestResponse } from 'toolkit/testing';

@Controller()
class WhoController {
  @Route('/who', { methods: ['GET'] })
  who(@Session() session: string, @Session() again: string) {
    return { session, same: session === again };
  }
}

/** Stands for real authentication: it trusts an `x-user` header. */
@Injectable()
class HeaderAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string>; user?: unknown }>();
    if (req.headers['x-user']) req.user = { id: req.headers['x-user'] };
    return true;
  }
}

@Controller()
class IpController {
  @Route('/ip', { methods: ['GET'] })
  ip(@Req() req: Request) {
    return { ip: req.ip, protocol: req.protocol };
  }
}

@Controller()
@UseGuards(HeaderAuthGuard)
class AuthedController {
  @Route('/me', { methods: ['GET'] })
  me(@Session() session: string) {
    return { session };
  }
}

const apps: App[] = [];
function appWith(app: Record<string, unknown> = {}): TestClient {
  const created = new App({
    controllers: [WhoController, AuthedController, IpController],
    logger: false,
    cwd: '/nonexistent',
    config: { app },
  });
  apps.push(created);
  return new TestClient(created);
}
afterAll(() => Promise.all(apps.map((app) => app.close())));

function setCookies(res: TestResponse): string[] {
  const header = res.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
}
/** The `name=value` part of the session cookie a response sets. */
function cookieOf(res: TestResponse): string {
  const [cookie] = setCookies(res);
  expect(cookie).toBeDefined();
  return cookie.split(';')[0];
}
const sessionOf = (res: TestResponse) => res.json<{ session: string }>().session;

describe('@Session()', () => {
  const client = appWith();

  it('issues a random signed session in an HttpOnly, SameSite=Lax cookie on first contact', async () => {
    const res = await client.get('/who');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      session: expect.stringMatching(/^session:[\w-]{32}$/),
      same: true,
    });
    const [cookie] = setCookies(res);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[\\w-]{32}\\.[\\w-]{43}; `));
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Lax');
    expect(cookie).toContain('; Path=/');
    expect(cookie).not.toContain('Secure');
    expect(setCookies(res)).toHaveLength(1);
    const other = await client.get('/who');
    expect(sessionOf(other)).not.toBe(sessionOf(res));
  });

  it('recognises its own cookie and sets none again', async () => {
    const first = await client.get('/who');
    const again = await client.get('/who', { headers: { cookie: `a=1; ${cookieOf(first)}; b=2` } });
    expect(sessionOf(again)).toBe(sessionOf(first));
    expect(setCookies(again)).toEqual([]);
  });

  it.each([
    [
      'a forged signature',
      (value: string) => value.slice(0, -2) + (value.endsWith('AA') ? 'BB' : 'AA'),
    ],
    ['a made-up id with a copied signature', (value: string) => 'x'.repeat(32) + value.slice(32)],
    ['a malformed value', () => 'not-a-session'],
    ['an oversized value', (value: string) => value + 'A'.repeat(20_000)],
    ['an empty value', () => ''],
  ])('gives %s a fresh session, never a 5xx', async (_name, forge) => {
    const first = await client.get('/who');
    const value = cookieOf(first).split('=')[1];
    const res = await client.get('/who', {
      headers: { cookie: `${SESSION_COOKIE}=${forge(value)}` },
    });
    expect(res.statusCode).toBe(200);
    expect(sessionOf(res)).not.toBe(sessionOf(first));
    expect(setCookies(res)).toHaveLength(1);
  });

  it('marks the cookie Secure over https only behind a trusted proxy', async () => {
    const headers = { 'x-forwarded-proto': 'https' };
    expect(setCookies(await client.get('/who', { headers }))[0]).not.toContain('Secure');
    const trusting = appWith({ trust_proxy: true });
    expect(setCookies(await trusting.get('/who', { headers }))[0]).toContain('; Secure');
    expect(setCookies(await trusting.get('/who'))[0]).not.toContain('Secure');
    // Express trusts the proxy too: the client's address and protocol come from its headers.
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
    expect((await trusting.get('/ip', { headers: forwarded })).json()).toEqual({
      ip: '203.0.113.7',
      protocol: 'https',
    });
    expect((await client.get('/ip', { headers: forwarded })).json()).toMatchObject({
      protocol: 'http',
    });
  });

  it('accepts cookies across instances sharing app.session_secret, and only then', async () => {
    const one = appWith({ session_secret: 'shared-secret-of-this-test' });
    const two = appWith({ session_secret: 'shared-secret-of-this-test' });
    const first = await one.get('/who');
    const cookie = cookieOf(first);
    expect(sessionOf(await two.get('/who', { headers: { cookie } }))).toBe(sessionOf(first));
    expect(sessionOf(await client.get('/who', { headers: { cookie } }))).not.toBe(sessionOf(first));
  });

  it('is the user an authentication guard set, without a cookie', async () => {
    const res = await client.get('/me', { headers: { 'x-user': 'ada' } });
    expect(res.json()).toEqual({ session: 'user:ada' });
    expect(setCookies(res)).toEqual([]);
    expect(sessionOf(await client.get('/me'))).toMatch(/^session:/);
  });
});
