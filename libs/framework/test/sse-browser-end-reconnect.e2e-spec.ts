/**
 * Chromium's own `EventSource` on a plain, non-resumable `@Stream()` route, from a page of another
 * origin (the App has CORS on): when the stream ends, the id-only frame that closes it becomes the
 * source's last event id without any event reaching the page, the reconnect carries it and gets
 * 204, and the `EventSource` closes. Over ten reconnect intervals the handler runs once and nothing
 * is requested after the 204 (on both platforms: the `fastify` project runs this file again).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type MessageEvent as NestMessageEvent } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { App, Route, Stream } from 'toolkit';
import { launchChromium } from '../../../apps/cli/test/support/chat-page-browser.js';
import { CuttingProxy } from './support/cutting-proxy.js';

/** The reconnection delay the stream gives the client (ms). */
const RETRY = 100;
const probe = { runs: 0 };

@Controller()
class WordsController {
  @Route('/words')
  @Stream()
  async *words(): AsyncGenerator<string | NestMessageEvent> {
    probe.runs += 1;
    yield { data: 'word 1', retry: RETRY };
    yield 'word 2';
    yield 'word 3';
  }
}

/** The page: follows `/words` of the App named in `?app=`, recording what its source does. */
const PAGE = `<!doctype html><title>words</title><script>
const app = new URL(location.href).searchParams.get('app');
window.seen = { messages: [], ids: [], errors: 0, closed: false };
const source = new EventSource(app + '/words');
source.onmessage = (event) => {
  seen.messages.push(event.data);
  seen.ids.push(event.lastEventId);
};
source.onerror = () => {
  seen.errors += 1;
  seen.closed = source.readyState === EventSource.CLOSED;
};
</script>`;

interface Seen {
  messages: string[];
  ids: string[];
  errors: number;
  closed: boolean;
}

describe("Chromium's EventSource on a plain stream that ended", () => {
  const app = new App({
    controllers: [WordsController],
    logger: false,
    cwd: '/nonexistent',
    cors: true,
  });
  let browser: Browser;
  let pages: Server;
  let pageUrl: string;
  let proxy: CuttingProxy;

  beforeAll(async () => {
    browser = await launchChromium();
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    proxy = await CuttingProxy.start(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    pages = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
    );
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    // The App through the proxy at `localhost`: another origin than the page's `127.0.0.1`.
    const appUrl = proxy.url.replace('127.0.0.1', 'localhost');
    pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/?app=${encodeURIComponent(appUrl)}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await proxy?.close();
    await app.close();
  });

  it('reconnects once, gets 204, closes, and runs the handler once', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const seen = (): Promise<Seen> => page.evaluate<Seen>('window.seen');
      await page.goto(pageUrl);
      for (let i = 0; i < 100 && !(await seen()).closed; i += 1) await sleep(RETRY);
      const requestsAtClose = proxy.requests;
      // Ten more reconnect intervals: a client told to go on would have come back by now.
      await sleep(RETRY * 10);
      const after = await seen();
      expect(after.closed).toBe(true);
      expect(after.messages).toEqual(['word 1', 'word 2', 'word 3']);
      // The end frame's id reached no event; the events kept the id of the first one.
      expect(after.ids).toEqual(['1', '1', '1']);
      // The end of the stream (the source reconnects), then the 204 (the source closes).
      expect(after.errors).toBe(2);
      expect(probe.runs).toBe(1);
      expect(proxy.answers).toEqual(['GET /words 200', 'GET /words 204']);
      expect(proxy.requests).toBe(requestsAtClose);
    } finally {
      await context.close();
    }
  }, 60_000);
});
