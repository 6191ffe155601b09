import { describe, expect, it } from '@jest/globals';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { meterResponse, type ResponseMeter } from './response-meter.js';

/** Answers one request with `answer`; resolves with the meter once the response closed. */
async function serve(
  answer: (res: ServerResponse) => void,
): Promise<{ meter: ResponseMeter; body: Buffer }> {
  let answered!: (meter: ResponseMeter) => void;
  const closed = new Promise<ResponseMeter>((resolve) => (answered = resolve));
  const server = createServer((_req, res) => {
    const meter = meterResponse(res);
    res.once('close', () => answered(meter));
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const body = Buffer.from(await res.arrayBuffer());
    return { meter: await closed, body };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('meterResponse', () => {
  it('counts the body bytes of writes and of end, strings in their encoding', async () => {
    const { meter, body } = await serve((res) => {
      res.write('héllo ');
      res.write(Buffer.from('wörld'));
      res.write('68656c6c6f', 'hex');
      res.end(' end', () => undefined);
    });
    expect(meter.bytes).toBe(body.length);
    expect(meter.firstByteAt).toEqual(expect.any(Number));
  });

  it('counts nothing for an empty answer', async () => {
    const { meter } = await serve((res) => {
      res.statusCode = 204;
      res.end();
    });
    expect(meter).toEqual({ bytes: 0 });
  });
});
