/**
 * Request ids and logs (issue 29, item 1): every answer carries `X-Request-Id` (an incoming one
 * kept only behind a trusted proxy and when well-formed), every log line written during a request
 * carries the id (a handler's own `Logger` lines and the 5xx error log alike, never the `{ error }`
 * body), and `app.access_log` writes one line per request with the route pattern. Logs are
 * captured through `new App({ logger })`; the JSON and text lines of toolkit's own logger are
 * read from a real process (request-logs.e2e-spec.ts). Runs on Express and, in the `fastify`
 * project, on Fastify.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Get,
  Logger,
  Module,
  Param,
  type INestApplication,
  type LoggerService,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AccessLogRecord,
  App,
  Arg,
  currentRequestId,
  LLM,
  Route,
  Stream,
  ToolkitModule,
} from 'toolkit';
import { TestClient } from 'toolkit/testing';
import { testAdapter } from '../../../test/support/platform.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRET = 'sk-LOGTEST-query-7c1d';
const BEARER = 'Bearer sk-LOGTEST-header-93ae';

/** One call of the logger: what it was given, and the request id current at that moment. */
interface Line {
  level: string;
  message: unknown;
  params: unknown[];
  requestId: string | undefined;
}

/**
 * A `LoggerService` that records every call with `currentRequestId()`, as a user's own logger
 * reads it; `next()` resolves once a line matching arrives (or at once if one did).
 */
class CaptureLogger implements LoggerService {
  readonly lines: Line[] = [];
  private readonly waiting: { match: (line: Line) => boolean; done: (line: Line) => void }[] = [];

  log(message: unknown, ...params: unknown[]): void {
    this.add('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.add('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.add('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.add('debug', message, params);
  }

  /** The first line matching `match`, now or when it is logged. */
  next(match: (line: Line) => boolean): Promise<Line> {
    const found = this.lines.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((done) => this.waiting.push({ match, done }));
  }

  /** The access line of the request answered with `id`. */
  access(id: string): Promise<AccessLogRecord> {
    return this.next(
      (line) => line.message instanceof AccessLogRecord && line.message.fields.requestId === id,
    ).then((line) => line.message as AccessLogRecord);
  }

  /** Everything logged, as one string (access records as their text and fields). */
  text(): string {
    return JSON.stringify(
      this.lines.map((line) => ({ ...line, message: String(line.message) })),
    ).concat(JSON.stringify(this.lines.map((line) => line.message)));
  }

  private add(level: string, message: unknown, params: unknown[]): void {
    const line = { level, message, params, requestId: currentRequestId() };
    this.lines.push(line);
    for (const waiter of [...this.waiting]) {
      if (!waiter.match(line)) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.done(line);
    }
  }
}

@Controller('items')
class ItemsController {
  private readonly logger = new Logger('Items');

  @Get(':id')
  async item(@Param('id') id: string) {
    await new Promise((resolve) => setImmediate(resolve));
    this.logger.log(`looking up item ${id.length}`);
    return { id };
  }
}

@Controller()
class AiController {
  constructor(private readonly llm: LLM) {}

  @Route('/broken')
  broken(): never {
    throw new Error('database exploded');
  }

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('question') question: string) {
    return { answer: await this.llm.chat(question) };
  }

  @Route('/words', { methods: ['POST'] })
  @Stream()
  async *words(@Arg('text') text: string) {
    for (const word of text.split(' ')) {
      await new Promise((resolve) => setImmediate(resolve));
      yield word;
    }
  }
}

function appWith(logger: CaptureLogger, trust_proxy: boolean): App {
  return new App({
    controllers: [ItemsController, AiController],
    logger,
    config: { app: { trust_proxy, access_log: true }, llm: { default_model: 'echo' } },
  });
}

describe('request ids and logs of an App', () => {
  const logger = new CaptureLogger();
  const app = appWith(logger, true);
  const client = new TestClient(app);

  afterAll(() => app.close());

  it('generates an id when none came, and answers with it', async () => {
    const res = await client.get('/items/7');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('keeps a well-formed incoming id behind a trusted proxy', async () => {
    const res = await client.get('/items/7', { headers: { 'x-request-id': 'lb-4f2a.91' } });
    expect(res.headers['x-request-id']).toBe('lb-4f2a.91');
    expect((await logger.access('lb-4f2a.91')).fields.status).toBe(200);
  });

  it('replaces a malformed incoming id, and never writes it anywhere', async () => {
    const tooLong = `long-${'x'.repeat(300)}`;
    const control = 'evil\u0007id\u001b[31m';
    for (const bad of [tooLong, control]) {
      const res = await client.get('/items/7', { headers: { 'x-request-id': bad } });
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(UUID);
      await logger.access(id);
    }
    expect(logger.text()).not.toContain('x'.repeat(200));
    expect(logger.text()).not.toContain('evil');
  });

  it("puts the id in a handler's own log lines", async () => {
    const res = await client.get('/items/abc');
    const id = String(res.headers['x-request-id']);
    const line = await logger.next((l) => l.message === 'looking up item 3' && l.requestId === id);
    expect(line.params).toContain('Items');
  });

  it('puts the id in the log of a 5xx error, and not in the { error } body', async () => {
    const res = await client.get('/broken');
    expect(res.statusCode).toBe(500);
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    expect(res.text()).not.toContain(id);
    expect(res.json()).toEqual({ error: 'Internal Server Error' });
    const line = await logger.next(
      (l) => l.level === 'error' && String(l.message).includes('database exploded'),
    );
    expect(line.requestId).toBe(id);
    expect((await logger.access(id)).fields).toMatchObject({ status: 500, route: '/broken' });
  });

  it('writes an access line with the route pattern, status, duration and bytes', async () => {
    const res = await client.get('/items/42', { params: { api_key: SECRET } });
    const id = String(res.headers['x-request-id']);
    const record = await logger.access(id);
    expect(record.fields).toEqual({
      requestId: id,
      method: 'GET',
      route: '/items/:id',
      status: 200,
      durationMs: expect.any(Number),
      bytes: Buffer.byteLength(res.text()),
    });
    expect(String(record)).toMatch(/^GET \/items\/:id 200 \d+ms \d+B$/);
    const line = logger.lines.find((l) => l.message === record);
    expect(line?.params).toEqual(['Access']);
    expect(line?.requestId).toBe(id);
  });

  it('never logs the query string or an Authorization header', async () => {
    const res = await client.post('/ask', {
      json: { question: 'hello there' },
      params: { key: SECRET },
      headers: { authorization: BEARER },
    });
    expect(res.statusCode).toBe(200);
    await logger.access(String(res.headers['x-request-id']));
    expect(logger.text()).not.toContain('LOGTEST');
  });

  it('adds the model and tokens of the LLM calls of the request', async () => {
    const res = await client.post('/ask', { json: { question: 'one two three' } });
    const record = await logger.access(String(res.headers['x-request-id']));
    expect(record.fields).toMatchObject({
      route: '/ask',
      status: 200,
      model: 'echo',
      provider: 'echo',
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
    });
    expect(record.fields.outputTokens).toBeGreaterThan(0);
    expect(String(record)).toMatch(/ model=echo tokens=\d+\+\d+/);
  });

  it('gives an SSE stream the id too, and logs it once the stream is over', async () => {
    const res = await client.post('/words', {
      json: { text: 'a b c' },
      headers: { 'x-request-id': 'stream-1' },
    });
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['x-request-id']).toBe('stream-1');
    const record = await logger.access('stream-1');
    expect(record.fields).toMatchObject({ route: '/words', status: 200, method: 'POST' });
    expect(record.fields.bytes).toBe(Buffer.byteLength(res.text()));
    expect(record.fields.firstByteMs).toEqual(expect.any(Number));
  });

  it('gives answers no route matched an id, logged without the raw path', async () => {
    const res = await client.get(`/nothing/${SECRET}`);
    expect(res.statusCode).toBe(404);
    const record = await logger.access(String(res.headers['x-request-id']));
    expect(record.fields).toMatchObject({ route: null, status: 404 });
    expect(logger.text()).not.toContain('LOGTEST');
  });

  it('gives the 400 of a malformed JSON body an id', async () => {
    const res = await client.post('/ask', {
      data: '{"question":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('gives the answer to a malformed URL an id', async () => {
    const res = await client.get('/items/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('logs nothing with a request id once the requests are over', () => {
    expect(currentRequestId()).toBeUndefined();
  });
});

describe('request ids without a trusted proxy', () => {
  const logger = new CaptureLogger();
  const app = appWith(logger, false);
  const client = new TestClient(app);

  afterAll(() => app.close());

  it('replaces even a well-formed incoming id', async () => {
    const res = await client.get('/items/1', { headers: { 'x-request-id': 'client-chosen' } });
    expect(res.headers['x-request-id']).toMatch(UUID);
    await logger.access(String(res.headers['x-request-id']));
    expect(logger.text()).not.toContain('client-chosen');
  });
});

describe('request ids in a host application (ToolkitModule)', () => {
  @Controller('own')
  class OwnController {
    private readonly logger = new Logger('Own');

    @Get()
    list() {
      this.logger.log('listing');
      return [1];
    }
  }

  async function host(
    requestIds: boolean,
    logger: CaptureLogger,
  ): Promise<{ app: INestApplication; client: TestClient }> {
    @Module({
      imports: [
        ToolkitModule.forRoot({
          requestIds,
          config: { app: { access_log: true } },
          cwd: '/nonexistent-toolkit-test-dir',
        }),
      ],
      controllers: [OwnController],
    })
    class HostModule {}
    const app = await NestFactory.create(HostModule, testAdapter(), { logger });
    await app.init();
    return { app, client: new TestClient(app) };
  }

  // One at a time: Nest's Logger is static, the last application created takes it over.
  it('with requestIds: answers with an id, in the log lines and the access line', async () => {
    const logs = new CaptureLogger();
    const { app, client } = await host(true, logs);
    try {
      const res = await client.get('/own');
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(UUID);
      const line = await logs.next((l) => l.message === 'listing');
      expect(line.requestId).toBe(id);
      expect((await logs.access(id)).fields).toMatchObject({ route: '/own', status: 200 });
    } finally {
      await app.close();
    }
  });

  it('without it: no header, no context, no access line', async () => {
    const logs = new CaptureLogger();
    const { app, client } = await host(false, logs);
    try {
      const res = await client.get('/own');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBeUndefined();
      const line = await logs.next((l) => l.message === 'listing');
      expect(line.requestId).toBeUndefined();
    } finally {
      await app.close();
    }
    expect(logs.lines.some((l) => l.message instanceof AccessLogRecord)).toBe(false);
  });
});
