import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from 'toolkit';
import { send, useDefaultHeaders } from './http-client.js';
import { catalogFrom, type CatalogRoute } from './route-catalog.js';

/** An app listening on 127.0.0.1 for a test, with its route catalogue. */
export interface ServedApp {
  name: string;
  app: App;
  base: string;
  routes: CatalogRoute[];
  close(): Promise<void>;
}

/**
 * Starts `app` on a free port of 127.0.0.1 and reads its routes from `/openapi.json`; every
 * request the tests send it carries `headers` (e.g. its API key).
 */
export async function serve(
  name: string,
  app: App,
  headers: Record<string, string> = {},
): Promise<ServedApp> {
  const server: Server = await app.run({ host: '127.0.0.1', port: 0 });
  // Keep-alive sockets of earlier clients must not hold close() up.
  server.keepAliveTimeout = 500;
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  useDefaultHeaders(base, headers);
  const openapi = await send(base, { method: 'GET', path: '/openapi.json' });
  if (openapi.status !== 200) throw new Error(`${name}: /openapi.json answered ${openapi.status}`);
  return {
    name,
    app,
    base,
    routes: catalogFrom(openapi),
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}
