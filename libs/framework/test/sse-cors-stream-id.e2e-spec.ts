/**
 * A page of another origin, in Chromium, reads `X-Stream-Id` of a resumable stream when the App
 * has CORS on (`Access-Control-Expose-Headers` names it), and resumes the stream with it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { App, Route, Stream } from 'toolkit';
import { launchChromium } from '../../../apps/cli/test/support/chat-page-browser.js';

@Controller()
class StoryController {
  @Route('/story', { methods: ['POST'] })
  @Stream({ resumable: true })
  async *story(): AsyncGenerator<string> {
    for (let i = 1; i <= 3; i += 1) yield `part ${i}`;
  }
}

/** What the page saw: the stream id it could read, and the events of a resume from event 1. */
interface PageReading {
  streamId: string | null;
  first: string;
  resumed: string;
}

/** Page function (a string: this project's TypeScript has no DOM types). */
const READ_AND_RESUME = `async (url) => {
  const headers = { 'content-type': 'application/json' };
  const first = await fetch(url, { method: 'POST', headers, body: '{}' });
  const streamId = first.headers.get('x-stream-id');
  const text = await first.text();
  const resumed = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'last-event-id': streamId + '.1' },
    body: '{}',
  });
  return { streamId, first: text, resumed: await resumed.text() };
}`;

describe('X-Stream-Id across origins', () => {
  let browser: Browser;
  let page: Server;
  let pageOrigin: string;

  beforeAll(async () => {
    browser = await launchChromium();
    page = createServer((_req, res) => res.end('<!doctype html><title>other origin</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
  });

  async function readFromPage(app: App): Promise<PageReading> {
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    // `localhost` is another origin than the page's `127.0.0.1`.
    const url = `http://localhost:${(server.address() as AddressInfo).port}/story`;
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(pageOrigin);
      return await tab.evaluate<PageReading>(`(${READ_AND_RESUME})(${JSON.stringify(url)})`);
    } finally {
      await context.close();
      await app.close();
    }
  }

  it('exposes X-Stream-Id to a page of another origin, beside the headers the App lists', async () => {
    const app = new App({
      controllers: [StoryController],
      logger: false,
      cwd: '/nonexistent',
      cors: { origin: pageOrigin, exposedHeaders: 'X-Request-Id' },
    });
    const reading = await readFromPage(app);
    expect(reading.streamId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(reading.first).toContain('data: part 3');
    expect(reading.resumed).not.toContain('data: part 1');
    expect(reading.resumed).toContain(`data: part 2\nid: ${reading.streamId}.2\n`);
  }, 60_000);

  it('exposes it with `cors: true` too', async () => {
    const app = new App({
      controllers: [StoryController],
      logger: false,
      cwd: '/nonexistent',
      cors: true,
    });
    const server = await app.run({ host: '127.0.0.1', port: 0 });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/story`;
      const res = await fetch(url, { method: 'POST', body: '{}', headers: { origin: pageOrigin } });
      await res.text();
      expect(res.headers.get('access-control-expose-headers')).toBe('X-Stream-Id');
    } finally {
      await app.close();
    }
  });
});
