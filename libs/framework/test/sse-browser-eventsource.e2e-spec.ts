/**
 * Chromium's own `EventSource` on a resumable stream, from a page of another origin (the App has
 * CORS on): the page keeps the last event id in `sessionStorage`, is reloaded mid-stream, and its
 * new `EventSource` resumes with `?lastEventId=` (an `EventSource` sends no `Last-Event-ID` on its
 * first request); when the stream ends, the reconnect gets 204 and the `EventSource` closes. The
 * page gets every event exactly once, the handler runs once, and nothing is requested after the
 * 204.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type MessageEvent as NestMessageEvent } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { RequestSignal, Route, Stream } from 'toolkit';
import type { CuttingProxy } from './support/cutting-proxy.js';
import { startCrossOriginPage, type CrossOriginPage } from './support/cross-origin-page.js';

/** The reconnection delay every event gives the client (ms). */
const RETRY = 100;
const EVENTS = 30;
const probe = { runs: 0 };

@Controller()
class DripController {
  @Route('/drip')
  @Stream({ resumable: true })
  async *drip(@RequestSignal() signal: AbortSignal): AsyncGenerator<NestMessageEvent> {
    probe.runs += 1;
    for (let i = 1; i <= EVENTS; i += 1) {
      if (i > 1) await sleep(30, undefined, { signal });
      yield { data: `drip ${i}`, retry: RETRY };
    }
  }
}

/** The page: follows `/drip` of the App named in `?app=`, resuming from where it was. */
const PAGE = `<!doctype html><title>drip</title><script>
const app = new URL(location.href).searchParams.get('app');
const last = sessionStorage.getItem('last');
const got = JSON.parse(sessionStorage.getItem('got') || '[]');
const opened = Number(sessionStorage.getItem('opened') || '0') + 1;
sessionStorage.setItem('opened', String(opened));
const source = new EventSource(app + '/drip' + (last ? '?lastEventId=' + encodeURIComponent(last) : ''));
source.onmessage = (event) => {
  got.push(event.data);
  sessionStorage.setItem('got', JSON.stringify(got));
  sessionStorage.setItem('last', event.lastEventId);
};
source.onerror = () => {
  // Which page load's EventSource closed (an unloading page may report its own).
  if (source.readyState === EventSource.CLOSED) sessionStorage.setItem('closed', String(opened));
};
</script>`;

/** Page expression: what the page stored. */
const STORED = `({
  got: JSON.parse(sessionStorage.getItem('got') || '[]'),
  closed: sessionStorage.getItem('closed') === '2',
  opened: Number(sessionStorage.getItem('opened')),
})`;

interface Stored {
  got: string[];
  closed: boolean;
  opened: number;
}

describe("Chromium's EventSource on a resumable stream, across a reload", () => {
  let setup: CrossOriginPage;
  let browser: Browser;
  let pageUrl: string;
  let proxy: CuttingProxy;

  beforeAll(async () => {
    setup = await startCrossOriginPage([DripController], PAGE);
    ({ browser, pageUrl, proxy } = setup);
  }, 60_000);

  afterAll(() => setup?.close());

  it('resumes after a reload, ends with a 204, and runs the handler once', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const stored = (): Promise<Stored> => page.evaluate<Stored>(STORED);
      await page.goto(pageUrl);
      for (let i = 0; i < 200 && (await stored()).got.length < 5; i += 1) await sleep(RETRY / 4);
      expect((await stored()).got.length).toBeGreaterThanOrEqual(5);
      expect((await stored()).got.length).toBeLessThan(EVENTS);
      await page.reload();
      for (let i = 0; i < 200 && !(await stored()).closed; i += 1) await sleep(RETRY);
      const requestsAtClose = proxy.requests;
      // Ten more reconnect intervals: a client told to go on would have come back by now.
      await sleep(RETRY * 10);
      const after = await stored();
      expect(after.closed).toBe(true);
      expect(after.opened).toBe(2);
      expect(after.got).toEqual(Array.from({ length: EVENTS }, (_, i) => `drip ${i + 1}`));
      expect(probe.runs).toBe(1);
      // The first page's request, the reloaded page's, and its reconnect after the end (204).
      expect(requestsAtClose).toBe(3);
      expect(proxy.answers.map((answer) => answer.replace(/=[\w-]+\.\d+/, '=<id>'))).toEqual([
        'GET /drip 200',
        'GET /drip?lastEventId=<id> 200',
        'GET /drip?lastEventId=<id> 204',
      ]);
      expect(proxy.requests).toBe(requestsAtClose);
    } finally {
      await context.close();
    }
  }, 60_000);
});
