/**
 * Connections with limits (`app.headers_timeout`, `app.request_timeout`, `app.keep_alive_timeout`,
 * `app.max_connections`, `app.max_connections_per_address`), on a served app (`App.run`):
 * a body that trickles is cut at the request time-out, a long SSE stream is not, connections over
 * a cap are refused while the open ones keep working, and 5,000 slow bodies from one address
 * leave `/health` answering for everyone else. Runs on Express and Fastify.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, Arg, HealthController, Route, Stream, type ToolkitConfigInput } from 'toolkit';
import { RawConnection } from './support/raw-connection.js';
import { RawHttpResponse } from './support/raw-http-response.js';

/** The request time-out of the app whose bodies trickle, in seconds. */
const REQUEST_TIMEOUT_S = 1;

/** How long the SSE stream stays silent: several request time-outs. */
const STREAM_SILENCE_MS = 3 * REQUEST_TIMEOUT_S * 1000;

@Controller()
class LimitsController {
  @Route('/echo', { methods: ['POST'] })
  echo(@Arg('text') text: string) {
    return { text };
  }

  @Route('/silent-stream', { methods: ['POST'] })
  @Stream()
  async *silentStream() {
    yield 'start';
    await sleep(STREAM_SILENCE_MS);
    yield 'end';
  }
}

const running: { app: App; cwd: string }[] = [];
const connections: RawConnection[] = [];

async function serve(app: ToolkitConfigInput['app']): Promise<{ port: number; server: Server }> {
  const cwd = mkdtempSync(join(tmpdir(), 'toolkit-limits-'));
  const served = new App({
    cwd,
    logger: false,
    controllers: [HealthController, LimitsController],
    config: { app },
  });
  running.push({ app: served, cwd });
  const server = await served.run({ host: '127.0.0.1', port: 0, announce: false });
  return { port: (server.address() as AddressInfo).port, server };
}

async function open(port: number, from?: string): Promise<RawConnection> {
  const connection = await RawConnection.open(port, from);
  connections.push(connection);
  return connection;
}

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

afterAll(async () => {
  for (const connection of connections) connection.close();
  for (const { app, cwd } of running) {
    await app.close();
    rmSync(cwd, { recursive: true, force: true });
  }
});

describe('App.run() sets the configured limits on the server', () => {
  it('applies the documented defaults', async () => {
    const { server } = await serve({});
    expect(server.requestTimeout).toBe(60_000);
    expect(server.headersTimeout).toBe(20_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.maxConnections).toBe(10_000);
  });
});

describe('time-outs', () => {
  let port: number;

  it('cuts a body that trickles with a 408 once the request time-out has passed', async () => {
    ({ port } = await serve({
      request_timeout: REQUEST_TIMEOUT_S,
      headers_timeout: REQUEST_TIMEOUT_S,
      sse_heartbeat: 0,
    }));
    const length = 1000;
    const connection = await open(port);
    const started = Date.now();
    connection.write(
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${length}\r\n\r\n{`,
    );
    // A byte every tenth of the time-out: the body would take 100 time-outs to complete.
    let sent = 1;
    while (!connection.isClosed && sent < length) {
      await sleep((REQUEST_TIMEOUT_S * 1000) / 10);
      connection.write(' ');
      sent += 1;
    }
    const answer = await connection.answer();
    await connection.closed;
    expect(answer.status).toBe(408);
    expect(sent).toBeLessThan(length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000);
  });

  it('does not cut an SSE stream that runs longer than the request time-out', async () => {
    const stream = RawHttpResponse.post('127.0.0.1', port, '/silent-stream');
    const chunks = await stream.rest();
    const text = chunks.join('');
    expect(text).toContain('data: start');
    expect(text).toContain('data: end');
  });
});

describe('max_connections', () => {
  it('refuses a connection over the cap while the open ones keep working', async () => {
    const cap = 4;
    const { port, server } = await serve({
      max_connections: cap,
      max_connections_per_address: 0,
      keep_alive_timeout: 60,
    });
    const held = await Promise.all(Array.from({ length: cap }, () => open(port)));
    for (const connection of held) expect((await connection.get('/health')).status).toBe(200);

    const extra = await open(port);
    extra.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await extra.closed;
    await expect(extra.answer()).rejects.toThrow('closed before a complete answer');

    for (const connection of held) expect((await connection.get('/health')).status).toBe(200);

    // A slot freed is a slot taken again.
    held[0]?.close();
    while ((await openConnections(server)) >= cap) await sleep(10);
    const next = await open(port);
    expect((await next.get('/health')).status).toBe(200);
  });
});

describe('max_connections_per_address', () => {
  it("answers one address's connection over its cap 503; other addresses still get in", async () => {
    const cap = 3;
    const { port } = await serve({ max_connections_per_address: cap, keep_alive_timeout: 60 });
    const held = await Promise.all(Array.from({ length: cap }, () => open(port, '127.0.0.2')));
    for (const connection of held) expect((await connection.get('/health')).status).toBe(200);

    const extra = await open(port, '127.0.0.2');
    const refused = await extra.answer();
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({ error: 'Too many connections from this address' });
    await extra.closed;

    const other = await open(port, '127.0.0.1');
    expect((await other.get('/health')).status).toBe(200);
    for (const connection of held) expect((await connection.get('/health')).status).toBe(200);
  });
});

describe('5,000 slow bodies', () => {
  it('leave /health answering while they are held', async () => {
    const total = 5000;
    const perAddress = 100;
    // A total cap far below the attack: without the per-address cap, the slow bodies would hold
    // every slot and /health would be refused.
    const { port, server } = await serve({
      max_connections: 1000,
      max_connections_per_address: perAddress,
      request_timeout: 600,
      headers_timeout: 600,
    });
    const slow: RawConnection[] = [];
    const batch = 250;
    for (let start = 0; start < total; start += batch) {
      const opened = await Promise.all(
        Array.from({ length: Math.min(batch, total - start) }, () =>
          RawConnection.open(port, '127.0.0.2'),
        ),
      );
      for (const connection of opened) {
        connection.write(
          'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
            'Content-Length: 1000\r\n\r\n{"te',
        );
      }
      slow.push(...opened);
      connections.push(...opened);
    }
    try {
      const health = await open(port, '127.0.0.1');
      expect((await health.get('/health')).status).toBe(200);

      // Every connection over the address's cap is closed; exactly the cap stays held.
      while (slow.filter((connection) => connection.isClosed).length < total - perAddress) {
        await sleep(20);
      }
      expect(slow.filter((connection) => !connection.isClosed)).toHaveLength(perAddress);
      expect(await openConnections(server)).toBe(perAddress + 1);
      expect((await health.get('/health')).status).toBe(200);
    } finally {
      for (const connection of slow) connection.close();
    }
  });
});
