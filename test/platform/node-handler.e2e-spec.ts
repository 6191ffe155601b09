/**
 * `app.handler`, the plain Node handler serverless hosts and custom servers use, serves the app
 * on either platform; `app.trust_proxy` makes the client address come from `X-Forwarded-For` on
 * both.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { Controller, Req } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Route } from 'toolkit';
import { PLATFORMS, type TestPlatform } from '../support/platform.js';

@Controller()
class WhoController {
  @Route('/who')
  who(@Req() req: { ip?: string; protocol?: string }) {
    return { ip: req.ip, protocol: req.protocol };
  }
}

const servers: Server[] = [];
const apps: App[] = [];

async function serve(platform: TestPlatform, trustProxy: boolean): Promise<string> {
  const app = new App({
    platform,
    controllers: [WhoController],
    config: { app: { trust_proxy: trustProxy } },
    logger: false,
    cwd: '/nonexistent-toolkit-node-handler',
  });
  app.route('/hello', { params: { name: 'string' } }, ({ name }) => `hello ${name}`);
  apps.push(app);
  // The environment overrides the platform option (the fastify jest project sets it): set
  // aside while the app starts, so it runs where it says.
  const runPlatform = process.env.TOOLKIT_APP_PLATFORM;
  delete process.env.TOOLKIT_APP_PLATFORM;
  try {
    expect((await app.init()).getHttpAdapter().getType()).toBe(platform);
  } finally {
    if (runPlatform !== undefined) process.env.TOOLKIT_APP_PLATFORM = runPlatform;
  }
  const server = createServer(app.handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(apps.map((app) => app.close()));
});

describe.each(PLATFORMS)('app.handler on %s', (platform) => {
  it('serves routes and errors through a plain Node server', async () => {
    const base = await serve(platform, false);
    const [ok, bad] = await Promise.all([fetch(`${base}/hello?name=ada`), fetch(`${base}/hello`)]);
    expect([ok.status, await ok.text()]).toEqual([200, 'hello ada']);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: expect.any(String) });
    const missing = await fetch(`${base}/nowhere`);
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'Not Found' }]);
  });

  it('takes the client address from X-Forwarded-For only with app.trust_proxy', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };
    const [trusting, wary] = [await serve(platform, true), await serve(platform, false)];
    const [trusted, ignored] = await Promise.all([
      fetch(`${trusting}/who`, { headers }),
      fetch(`${wary}/who`, { headers }),
    ]);
    expect(await trusted.json()).toEqual({ ip: '203.0.113.7', protocol: 'https' });
    expect(await ignored.json()).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });
});
