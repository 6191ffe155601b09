/**
 * The same app on Express and on Fastify answers the same bad requests alike: byte for byte in
 * status and `{ error }` body (and the `Allow` / `Retry-After` headers that go with them). Runs
 * in both jest projects; each builds both platforms, so the comparison never depends on the run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadRequestException, Controller, Header, Req } from '@nestjs/common';
import type { Request } from 'express';
import { gzipSync } from 'node:zlib';
import { App, Arg, readUploads, Route, Stream, ToolkitError } from 'toolkit';
import { TestClient, type TestResponse } from 'toolkit/testing';
import { PLATFORMS, testPlatform, type TestPlatform } from '../support/platform.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}

  toJSON() {
    return { point: [this.x, this.y] };
  }
}

@Controller()
class ParityController {
  @Route('/items/:id', { methods: ['GET', 'PUT'] })
  item(@Arg('id', { type: 'integer', in: 'path' }) id: number) {
    return { id };
  }

  @Route('/echo', { methods: ['POST'] })
  echo(@Arg('text') text: string, @Arg('times', { type: 'integer', default: 1 }) times: number) {
    return { text: text.repeat(times) };
  }

  @Route('/upload', { methods: ['POST'] })
  async upload(@Req() req: Request) {
    const files = await readUploads(req, { maxFileBytes: 1024 });
    return { names: files.map((file) => file.filename) };
  }

  @Route('/typed')
  @Header('Content-Type', 'application/problem+json')
  typed() {
    return { title: 'typed' };
  }

  @Route('/shapes')
  shapes(@Arg('kind', { in: 'query' }) kind: string) {
    if (kind === 'array') return [1, 'two', { three: 3 }];
    if (kind === 'class') return new Point(1, 2);
    if (kind === 'null-prototype') return Object.assign(Object.create(null) as object, { a: 1 });
    return [{ status: 'created' }, 201];
  }

  @Route('/busy')
  busy(): never {
    throw new ToolkitError('Slow down', { statusCode: 429, headers: { 'Retry-After': '7' } });
  }

  @Route('/broken')
  broken(): never {
    throw new Error('a secret stack');
  }

  @Route('/nest-error')
  nestError(): never {
    throw new BadRequestException('from Nest');
  }

  @Route('/stream', { methods: ['POST'] })
  @Stream()
  async *stream(@Arg('n', { type: 'integer', min: 1, max: 3 }) n: number) {
    for (let i = 0; i < n; i += 1) yield `chunk ${i}`;
  }
}

function appOn(platform: TestPlatform): App {
  return new App({
    platform,
    controllers: [ParityController],
    config: { app: { body_limit: 2048 } },
    logger: false,
    cwd: '/nonexistent-toolkit-parity',
  });
}

type BadRequest = [string, (client: TestClient) => Promise<TestResponse>];

const json = { 'content-type': 'application/json' };
const BAD_REQUESTS: BadRequest[] = [
  ['malformed JSON', (c) => c.post('/echo', { data: '{"text": ', headers: json })],
  ['JSON that is not an object', (c) => c.post('/echo', { data: '"text"', headers: json })],
  ['JSON with a stray token', (c) => c.post('/echo', { data: 'nope', headers: json })],
  ['a missing parameter', (c) => c.post('/echo', { json: {} })],
  ['wrongly typed parameters', (c) => c.post('/echo', { json: { text: 1, times: 'x' } })],
  ['a bad path parameter', (c) => c.get('/items/abc')],
  ['a bad query value', (c) => c.post('/echo', { json: { text: 'a' }, params: { times: 'x' } })],
  ['an unknown path', (c) => c.get('/nowhere')],
  ['a wrong method', (c) => c.delete('/items/1')],
  ['a wrong method on a POST route', (c) => c.get('/echo')],
  ['a body over the limit', (c) => c.post('/echo', { json: { text: 'x'.repeat(4096) } })],
  ['a form over the limit', (c) => c.post('/echo', { data: { text: 'x'.repeat(4096) } })],
  [
    'an unsupported charset',
    (c) =>
      c.post('/echo', {
        data: '{}',
        headers: { 'content-type': 'application/json; charset=koi8-r' },
      }),
  ],
  [
    'an unsupported encoding',
    (c) => c.post('/echo', { data: '{}', headers: { ...json, 'content-encoding': 'compress' } }),
  ],
  [
    'a plain-text body',
    (c) => c.post('/echo', { data: 'text=a', headers: { 'content-type': 'text/plain' } }),
  ],
  ['an upload that is not multipart', (c) => c.post('/upload', { json: { file: 'x' } })],
  [
    'an upload over the limit',
    (c) =>
      c.post('/upload', { files: { file: { filename: 'a.txt', content: Buffer.alloc(4096) } } }),
  ],
  [
    'an upload without a file',
    (c) => c.post('/upload', { files: { other: { filename: 'a.txt', content: 'hi' } } }),
  ],
  [
    'a malformed multipart body',
    (c) =>
      c.post('/upload', {
        data: '--x\r\nnot a part',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
  ],
  ['a rate limit', (c) => c.get('/busy')],
  ['a failing handler', (c) => c.get('/broken')],
  ['a Nest exception', (c) => c.get('/nest-error')],
  ['a stream with a bad parameter', (c) => c.post('/stream', { json: { n: 9 } })],
  ['a malformed percent-encoding in the path', (c) => c.get('/items/%E0%A4%A')],
  ['a malformed percent-encoding on an unknown path', (c) => c.get('/%zz')],
  [
    'a repeated query value',
    (c) => c.post('/echo', { json: { text: 'a' }, params: { times: [1, 2] } }),
  ],
  // Plain JSON bodies are read by toolkit's own reader on Fastify and by body-parser on Express.
  [
    'JSON that is a number after whitespace',
    (c) => c.post('/echo', { data: ' \n\t12', headers: json }),
  ],
  ['JSON null', (c) => c.post('/echo', { data: 'null', headers: json })],
  [
    'JSON true after a long indent',
    (c) => c.post('/echo', { data: `${' '.repeat(300)}true`, headers: json }),
  ],
  ['a JSON body of whitespace only', (c) => c.post('/echo', { data: '  \r\n', headers: json })],
  ['an empty JSON body', (c) => c.post('/echo', { data: '', headers: json })],
  [
    'a byte-order mark before a stray token',
    (c) => c.post('/echo', { data: '\uFEFFnope', headers: json }),
  ],
  [
    'malformed JSON with a quoted UTF-8 charset',
    (c) =>
      c.post('/echo', {
        data: '{"text": 1,}',
        headers: { 'content-type': 'Application/JSON; charset="UTF-8"' },
      }),
  ],
  [
    'invalid UTF-8 in malformed JSON',
    (c) => c.post('/echo', { data: Buffer.from([0x7b, 0xff, 0xfe, 0x22]), headers: json }),
  ],
  [
    'a string value cut by the end of the body',
    (c) => c.post('/echo', { data: '{"text": "\u00e9', headers: json }),
  ],
  [
    'JSON nested too deep',
    (c) => c.post('/echo', { data: '['.repeat(5000) + ']'.repeat(5000), headers: json }),
  ],
  ['a trailing slash with a wrong method', (c) => c.delete('/items/1/')],
  ['upper-case path with a wrong method', (c) => c.get('/ECHO')],
  ['HEAD on a POST route', (c) => c.request('HEAD', '/echo').then(withBody)],
];

/** HEAD answers have no body: compare their status and headers with an empty `{ error }`. */
function withBody(res: TestResponse): TestResponse {
  return Object.assign(Object.create(res) as TestResponse, {
    text: () => JSON.stringify({ error: `HEAD ${res.statusCode}` }),
  });
}

describe('the same bad requests on Express and Fastify', () => {
  const clients = new Map<TestPlatform, TestClient>();
  const apps: App[] = [];
  // The environment overrides the `platform` option (as for any setting): set aside while the
  // two apps start, so each runs where it says whichever project runs the file.
  const runPlatform = process.env.TOOLKIT_APP_PLATFORM;

  beforeAll(async () => {
    delete process.env.TOOLKIT_APP_PLATFORM;
    for (const platform of PLATFORMS) {
      const app = appOn(platform);
      apps.push(app);
      clients.set(platform, new TestClient(app));
      await app.init();
    }
    if (runPlatform !== undefined) process.env.TOOLKIT_APP_PLATFORM = runPlatform;
  });
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  it('run on the platform each names', async () => {
    for (const [index, platform] of PLATFORMS.entries()) {
      expect((await apps[index].init()).getHttpAdapter().getType()).toBe(platform);
    }
  });

  it.each(BAD_REQUESTS)('%s: same status, same { error } body', async (_name, send) => {
    const [express, fastify] = await Promise.all(PLATFORMS.map((p) => send(clients.get(p)!)));
    expect(express.statusCode).toBeGreaterThanOrEqual(400);
    expect([fastify.statusCode, fastify.text()]).toEqual([express.statusCode, express.text()]);
    expect(fastify.text()).toBe(express.text());
    expect(JSON.parse(fastify.text())).toHaveProperty('error', expect.any(String));
    for (const header of ['allow', 'retry-after']) {
      expect(fastify.headers[header]).toBe(express.headers[header]);
    }
  });

  it('answers good requests alike too, a stream included', async () => {
    const requests: ((c: TestClient) => Promise<TestResponse>)[] = [
      (c) => c.get('/items/7'),
      (c) => c.post('/echo', { json: { text: 'ab', times: 2 } }),
      (c) => c.post('/echo', { json: { text: 'héllo ✓ \u2028', times: 2 } }),
      (c) =>
        c.post('/echo', {
          data: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"bom"}')]),
          headers: json,
        }),
      (c) =>
        c.post('/echo', { data: Buffer.from('{"text":"a\xff\xc3"}', 'latin1'), headers: json }),
      (c) =>
        c.post('/echo', {
          data: '\n {"text":"utf"}',
          headers: { 'content-type': 'application/json;charset=utf-8' },
        }),
      (c) =>
        c.post('/echo', {
          data: gzipSync('{"text":"zipped"}'),
          headers: { ...json, 'content-encoding': 'gzip' },
        }),
      (c) =>
        c.post('/echo', {
          data: '{"text":"vendor"}',
          headers: { 'content-type': 'application/vnd.api+json' },
        }),
      (c) => c.post('/echo', { data: { text: 'form' } }),
      (c) => c.post('/upload', { files: { file: { filename: 'a.txt', content: 'hi' } } }),
      (c) => c.post('/stream', { json: { n: 3 } }),
      (c) => c.get('/typed'),
      ...['array', 'class', 'null-prototype', 'tuple'].map(
        (kind) => (c: TestClient) => c.get('/shapes', { params: { kind } }),
      ),
    ];
    for (const send of requests) {
      const [express, fastify] = await Promise.all(PLATFORMS.map((p) => send(clients.get(p)!)));
      expect(express.statusCode).toBeLessThan(300);
      expect([fastify.statusCode, fastify.text()]).toEqual([express.statusCode, express.text()]);
      expect(fastify.headers['content-type']).toBe(express.headers['content-type']);
    }
  });
});

describe('the platform of this run', () => {
  it('is the one App starts on without a platform option', async () => {
    const app = new App({ logger: false, cwd: '/nonexistent-toolkit-parity' });
    expect((await app.init()).getHttpAdapter().getType()).toBe(testPlatform());
    await app.close();
  });
});
