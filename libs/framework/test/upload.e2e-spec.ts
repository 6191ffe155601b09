import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Req } from '@nestjs/common';
import type { Request } from 'express';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { App, readUploads, Route } from 'toolkit';
import { multipartBody, TestClient } from 'toolkit/testing';

const LIMIT = 1024 * 1024;

@Controller()
class UploadController {
  @Route('/upload', { methods: ['POST'] })
  async upload(@Req() req: Request) {
    const files = await readUploads(req, { maxFileBytes: LIMIT, maxFiles: 2 });
    return {
      files: files.map((f) => ({ name: f.filename, bytes: f.content.length, field: f.field })),
    };
  }
}

describe('readUploads', () => {
  const app = new App({ controllers: [UploadController], logger: false, cwd: '/nonexistent' });
  const client = new TestClient(app);
  let port: number;
  beforeAll(async () => {
    port = ((await app.run({ host: '127.0.0.1', port: 0 })).address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it('reads one or several files', async () => {
    const res = await client.post('/upload', {
      files: {
        file: { filename: 'a.txt', content: 'hello' },
        files: { filename: '../../etc/passwd', content: Buffer.alloc(1000, 1) },
      },
    });
    expect(res.json()).toEqual({
      files: [
        { name: 'a.txt', bytes: 5, field: 'file' },
        // The client's path never survives: only the base name is kept.
        { name: 'passwd', bytes: 1000, field: 'files' },
      ],
    });
  });

  it('refuses other content types with 415 and an upload without a file with 400', async () => {
    expect((await client.post('/upload', { json: { file: 'x' } })).statusCode).toBe(415);
    const empty = await client.post('/upload', { files: {}, data: { note: 'no file here' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toMatch(/No file in the upload/);
    const three = [1, 2, 3].map((n) => ({ filename: `${n}.txt`, content: 'x' }));
    const tooMany = await client.post('/upload', { files: { file: three } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ error: string }>().error).toBe('At most 2 files per upload');
  });

  it('answers 413 stating the limit as soon as a file passes it, without reading the rest', async () => {
    // 25 MiB announced with chunked encoding (no Content-Length), written slowly in 64 KiB pieces.
    const { body, contentType } = multipartBody({ file: { filename: 'big.bin', content: '' } });
    const boundary = contentType.split('boundary=')[1];
    // Everything up to the (empty) file content; the content then never ends.
    const head = body.subarray(0, body.length - `\r\n--${boundary}--\r\n`.length);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = (data: Buffer) => `${data.length.toString(16)}\r\n${data.toString('latin1')}\r\n`;
    socket.write(chunk(head), 'latin1');
    let response = '';
    socket.on('data', (data) => (response += data.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    let sent = 0;
    const piece = Buffer.alloc(64 * 1024, 7);
    while (sent < 25 * 1024 * 1024 && !socket.destroyed && response === '') {
      socket.write(chunk(piece), 'latin1');
      sent += piece.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await closed;
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(response).toContain('Upload exceeds the limit of 1 MiB');
    expect(sent).toBeLessThan(25 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    const res = await client.post('/upload', {
      files: { file: { filename: 'a.txt', content: 'x' } },
      headers: { 'content-length': String(10 * LIMIT) },
    });
    expect(res.statusCode).toBe(413);
  });
});
