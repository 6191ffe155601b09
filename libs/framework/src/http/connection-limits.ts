import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { AppSettings } from '../config/toolkit-config.interface.js';

/** The `app.*` keys that limit connections (see {@link applyConnectionLimits}). */
export type ConnectionLimits = Pick<
  AppSettings,
  | 'headers_timeout'
  | 'request_timeout'
  | 'keep_alive_timeout'
  | 'max_connections'
  | 'max_connections_per_address'
  | 'trust_proxy'
>;

/** Longest and shortest period between Node's checks of requests' time-outs, in ms. */
const MAX_CHECK_MS = 1000;
const MIN_CHECK_MS = 50;

const REFUSED_BODY = JSON.stringify({ error: 'Too many connections from this address' });
const REFUSED =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n' +
  `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(REFUSED_BODY)}\r\n\r\n` +
  REFUSED_BODY;

/**
 * Sets `server`'s time-outs and connection caps from the configuration, on Express and Fastify
 * alike (both run on a Node HTTP server). Call it before `listen()`: Node reads how often it
 * checks requests' time-outs when the server starts listening, and the check runs at least once
 * a second (more often for time-outs under 4 s), so a slow request is cut close to its limit.
 *
 * - `headers_timeout`/`request_timeout` bound the time to receive a request (headers, then the
 *   whole of it): a body that trickles is answered 408 and closed. A response that has started
 *   (an SSE stream) is never cut by them.
 * - `keep_alive_timeout` closes idle keep-alive connections (0: each answer closes its own).
 * - `max_connections` closes connections over the cap as they arrive (Node's `maxConnections`).
 * - `max_connections_per_address` answers a client address's connection over its cap 503 and
 *   closes it (not with `trust_proxy`, where every connection comes from the proxy).
 *
 * @example
 * const server = nest.getHttpServer() as Server;
 * applyConnectionLimits(server, config.app);
 * await nest.listen(8000);
 */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits): void {
  const requestMs = Math.round(limits.request_timeout * 1000);
  const headersMs = Math.round(limits.headers_timeout * 1000);
  server.requestTimeout = requestMs;
  server.headersTimeout = requestMs > 0 && headersMs > requestMs ? requestMs : headersMs;
  const keepAliveMs = Math.round(limits.keep_alive_timeout * 1000);
  // Node reads a keep-alive time-out of 0 as "none" (idle connections stay open for ever); here 0
  // means no keep-alive: each answer closes its connection.
  server.keepAliveTimeout = Math.max(1, keepAliveMs);
  if (keepAliveMs === 0) server.maxRequestsPerSocket = 1;
  server.maxConnections = limits.max_connections > 0 ? limits.max_connections : Infinity;
  const shortest = Math.min(
    ...[server.requestTimeout, server.headersTimeout].filter((ms) => ms > 0),
    Infinity,
  );
  // A creation option in Node's types, but read from the server when it starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    Math.max(MIN_CHECK_MS, Math.min(MAX_CHECK_MS, Math.floor(shortest / 4)));
  const perAddress = limits.max_connections_per_address;
  if (perAddress > 0 && !limits.trust_proxy) capConnectionsPerAddress(server, perAddress);
}

/** Counts each remote address's open connections; one over `cap` is refused. */
function capConnectionsPerAddress(server: Server, cap: number): void {
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= cap) {
      refuse(socket);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Answers 503 and closes at once: the small answer goes out in one write, and the socket,
 * destroyed before Node's HTTP server takes it, is never read, so no request on it runs.
 */
function refuse(socket: Socket): void {
  socket.on('error', () => undefined);
  socket.end(REFUSED);
  socket.destroy();
}
