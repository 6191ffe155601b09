/**
 * Chromium's own `EventSource` on a plain, non-resumable `@Stream()` route, from a page of another
 * origin (the App has CORS on): when the stream ends, the id-only frame that closes it becomes the
 * source's last event id without any event reaching the page, the reconnect carries it and gets
 * 204, and the `EventSource` closes. Over ten reconnect intervals the handler runs once and nothing
 * is requested after the 204 (on both platforms: the `fastify` project runs this file again).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type MessageEvent as NestMessageEvent } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { Route, Stream } from 'toolkit';
import type { CuttingProxy } from './support/cutting-proxy.js';
import { startCrossOriginPage, type CrossOriginPage } from './support/cross-origin-page.js';

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
  let setup: CrossOriginPage;
  let browser: Browser;
  let pageUrl: string;
  let proxy: CuttingProxy;

  beforeAll(async () => {
    setup = await startCrossOriginPage([WordsController], PAGE);
    ({ browser, pageUrl, proxy } = setup);
  }, 60_000);

  afterAll(() => setup?.close());

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
