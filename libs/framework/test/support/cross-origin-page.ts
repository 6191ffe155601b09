import type { Type } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { App } from 'toolkit';
import { launchChromium } from '../../../../apps/cli/test/support/chat-page-browser.js';
import { CuttingProxy } from './cutting-proxy.js';

/** Chromium, a page of one origin and an `App` (CORS on) behind a proxy at another. */
export interface CrossOriginPage {
  readonly browser: Browser;
  /** The page's address; its `?app=` names the App's origin, through the proxy. */
  readonly pageUrl: string;
  /** What crossed between the browser and the App. */
  readonly proxy: CuttingProxy;
  /** Stops the browser, the page server, the proxy and the App. */
  close(): Promise<void>;
}

/**
 * Serves `page` (HTML) at `http://127.0.0.1:<port>/` and the controllers' `App` through a
 * {@link CuttingProxy} at `localhost`, another origin than the page's, and starts Chromium: what
 * a browser's `EventSource` on another origin meets.
 */
export async function startCrossOriginPage(
  controllers: Type[],
  page: string,
): Promise<CrossOriginPage> {
  const app = new App({ controllers, logger: false, cwd: '/nonexistent', cors: true });
  const browser = await launchChromium();
  const server = await app.run({ host: '127.0.0.1', port: 0 });
  const proxy = await CuttingProxy.start(
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  );
  const pages: Server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(page),
  );
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const appUrl = proxy.url.replace('127.0.0.1', 'localhost');
  const pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/?app=${encodeURIComponent(appUrl)}`;
  return {
    browser,
    pageUrl,
    proxy,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => pages.close(resolve));
      await proxy.close();
      await app.close();
    },
  };
}
