import { describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { applyConnectionLimits, type ConnectionLimits } from './connection-limits.js';

const DEFAULTS: ConnectionLimits = {
  headers_timeout: 20,
  request_timeout: 60,
  keep_alive_timeout: 5,
  max_connections: 10_000,
  max_connections_per_address: 256,
  trust_proxy: false,
};

function limited(overrides: Partial<ConnectionLimits> = {}): Server {
  const server = createServer();
  applyConnectionLimits(server, { ...DEFAULTS, ...overrides });
  return server;
}

/** The `connection` listeners of Node's HTTP server itself. */
const OWN_LISTENERS = createServer().listenerCount('connection');

const checkingInterval = (server: Server) =>
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval;

describe('applyConnectionLimits', () => {
  it('sets the time-outs in ms and the connection cap', () => {
    const server = limited();
    expect(server.requestTimeout).toBe(60_000);
    expect(server.headersTimeout).toBe(20_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.maxConnections).toBe(10_000);
    expect(checkingInterval(server)).toBe(1000);
  });

  it('never lets the headers wait longer than the whole request', () => {
    expect(limited({ headers_timeout: 90, request_timeout: 30 }).headersTimeout).toBe(30_000);
    expect(limited({ headers_timeout: 90, request_timeout: 0 }).headersTimeout).toBe(90_000);
  });

  it('checks short time-outs often enough to cut close to them', () => {
    expect(checkingInterval(limited({ headers_timeout: 1, request_timeout: 1 }))).toBe(250);
    expect(checkingInterval(limited({ headers_timeout: 0.1, request_timeout: 0.1 }))).toBe(50);
  });

  it('reads 0 as "no limit" for time-outs and caps, and as "no keep-alive"', () => {
    const server = limited({
      headers_timeout: 0,
      request_timeout: 0,
      keep_alive_timeout: 0,
      max_connections: 0,
      max_connections_per_address: 0,
    });
    expect([server.requestTimeout, server.headersTimeout]).toEqual([0, 0]);
    expect(server.maxConnections).toBe(Infinity);
    expect(server.maxRequestsPerSocket).toBe(1);
    expect(server.keepAliveTimeout).toBeGreaterThan(0);
    expect(server.listenerCount('connection')).toBe(OWN_LISTENERS);
  });

  it('caps connections per address, but not behind a proxy', () => {
    expect(limited().listenerCount('connection')).toBe(OWN_LISTENERS + 1);
    expect(limited({ trust_proxy: true }).listenerCount('connection')).toBe(OWN_LISTENERS);
  });
});
