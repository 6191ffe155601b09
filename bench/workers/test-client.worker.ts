// TestClient (in-process, no socket) vs supertest over a real socket, same app, same requests:
//   node test-client.worker.js <testclient|supertest> <seconds> <concurrency> <warmup>
import request from 'supertest';
import type { AddressInfo } from 'node:net';
import { App } from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { report, runOps } from '../support/ops-loop.js';

const [mode, seconds, concurrency, warmup] = process.argv.slice(2);
const app = new App({ logger: false });
app.route('/echo', { methods: ['POST'], params: { message: 'string' } }, ({ message }) => ({
  echo: message,
}));

let send: () => Promise<number>;
if (mode === 'testclient') {
  const client = new TestClient(app);
  send = async () => (await client.post('/echo', { json: { message: 'hello' } })).statusCode;
} else if (mode === 'supertest') {
  const server = await app.run({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  send = async () => (await request(url).post('/echo').send({ message: 'hello' })).status;
} else {
  throw new Error(
    'usage: test-client.worker.js <testclient|supertest> <seconds> <concurrency> <warmup>',
  );
}

try {
  const result = await runOps(
    async () => {
      const status = await send();
      if (status !== 200) throw new Error(`status ${status}`);
    },
    { seconds: Number(seconds), concurrency: Number(concurrency), warmupSeconds: Number(warmup) },
  );
  report(result);
} finally {
  await app.close();
}
