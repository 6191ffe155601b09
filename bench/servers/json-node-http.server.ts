// Context only: POST /echo on raw node:http (no framework at all).
import { createServer } from 'node:http';
import { announce } from '../support/announce.js';

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/echo') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not Found"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: unknown };
      const payload = JSON.stringify({ echo: body.message });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(payload);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"Bad JSON"}');
    }
  });
});
server.listen(0, '127.0.0.1', () => announce(server));
