import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { plainJsonLength, readPlainJson } from './plain-json-body.js';

function incoming(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('plainJsonLength', () => {
  const json = { 'content-type': 'application/json', 'content-length': '12' };

  it('takes plain JSON with a length within the limit', () => {
    expect(plainJsonLength(incoming(json), 12)).toBe(12);
    const typed = { ...json, 'content-type': 'application/JSON ; Charset="utf-8"' };
    expect(plainJsonLength(incoming(typed), 100)).toBe(12);
  });

  it.each([
    ['over the limit', json, 11],
    ['without a length', { 'content-type': 'application/json' }, 100],
    ['chunked', { ...json, 'transfer-encoding': 'chunked' }, 100],
    ['compressed', { ...json, 'content-encoding': 'gzip' }, 100],
    ['another charset', { ...json, 'content-type': 'application/json; charset=latin1' }, 100],
    ['a vendor JSON type', { ...json, 'content-type': 'application/vnd.api+json' }, 100],
    ['a form', { ...json, 'content-type': 'application/x-www-form-urlencoded' }, 100],
    ['a length that is not a number', { ...json, 'content-length': '1e3' }, 100000],
  ])('leaves a body %s to body-parser', (_case, headers, limit) => {
    expect(plainJsonLength(incoming(headers), limit)).toBeUndefined();
  });
});

describe('readPlainJson over a real connection', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  /** Starts a server that reads each body with readPlainJson and reports the outcome. */
  let calls = 0;

  function serve(): Promise<{
    port: number;
    outcome: Promise<{ error: Error | null; body?: unknown }>;
  }> {
    calls = 0;
    let report!: (value: { error: Error | null; body?: unknown }) => void;
    const outcome = new Promise<{ error: Error | null; body?: unknown }>(
      (resolve) => (report = resolve),
    );
    server = createServer((req, res) => {
      readPlainJson(req, Number(req.headers['content-length']), (error, body) => {
        calls += 1;
        report({ error, body });
        res.end();
      });
    });
    return new Promise((resolve) =>
      server!.listen(0, '127.0.0.1', () =>
        resolve({ port: (server!.address() as AddressInfo).port, outcome }),
      ),
    );
  }

  it('parses a body that arrives in several packets', async () => {
    const { port, outcome } = await serve();
    const body = Buffer.from('{"text": "héllo", "n": [1, 2]}');
    const req = request({
      port,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    });
    // Split inside the two-byte "é" too.
    for (const part of [body.subarray(0, 12), body.subarray(12, 13), body.subarray(13)]) {
      req.write(part);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    req.end();
    req.on('response', (res) => res.resume());
    await expect(outcome).resolves.toEqual({
      error: null,
      body: { text: 'héllo', n: [1, 2] },
    });
  });

  it("answers a client that leaves mid-body with body-parser's 400, once", async () => {
    const { port, outcome } = await serve();
    const req = request({
      port,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': 100 },
    });
    req.on('error', () => undefined);
    req.write('{"text": "cut');
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.destroy();
    const { error } = await outcome;
    expect(error).toMatchObject({ status: 400, expose: true });
    // The request's later events (`error`, `close`) do not call back again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);
    expect(['request.aborted', 'request.size.invalid']).toContain(
      (error as Error & { type: string }).type,
    );
  });

  it('gives a strict-mode error body-parser words the same way', async () => {
    const { port, outcome } = await serve();
    const body = '  "just a string"';
    const req = request({
      port,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    });
    req.end(body);
    req.on('response', (res) => res.resume());
    const { error } = await outcome;
    expect(error).toMatchObject({ status: 400, type: 'entity.parse.failed' });
    expect(error!.message).toBe(`Unexpected token '"', "  "just a string"" is not valid JSON`);
  });
});
