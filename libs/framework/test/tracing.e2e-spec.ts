/**
 * OpenTelemetry traces of an `App` (`telemetry.enabled`), checked with the real SDK and real
 * HTTP: the app exports over OTLP/HTTP (the `http/json` encoding, the OTLP specification's JSON
 * mapping, decoded by the receiver in support/otlp-receiver.ts) to a receiver on 127.0.0.1. The
 * HTTP server span (OpenTelemetry's HTTP instrumentation) carries the route pattern and the
 * request id; an agent request's LLM and tool spans are its children; an incoming `traceparent`
 * continues its trace; closing the app sends the last spans; an unreachable endpoint (a closed
 * port, a server that never answers) fails no request and the lost spans are counted (by
 * `droppedSpanCount()` and `toolkit_trace_spans_dropped_total`); a Nest application of its own
 * importing `ToolkitModule` is traced too. Tracing off, and the app's own provider: see
 * tracing-process.e2e-spec.ts and tracing-own-provider.e2e-spec.ts. Runs on Express and on
 * Fastify.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Arg, droppedSpanCount, LLM, Route, ToolkitModule, ToolRegistry } from 'toolkit';
import { testAdapter } from '../../../test/support/platform.js';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../providers/test/support/fake-llm.server.js';
import { AddingTools } from './fixtures/adding-tools.js';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';

const SERVER = 2;
const HTTP_INSTRUMENTATION = '@opentelemetry/instrumentation-http';

@Controller()
class ShopController {
  constructor(
    private readonly llm: LLM,
    private readonly tools: ToolRegistry,
  ) {}

  @Route('/items/:id', { methods: ['GET'] })
  item(@Arg('id') id: string) {
    return { id };
  }

  @Route('/agent', { methods: ['POST'] })
  async agent(@Arg('message') message: string) {
    const { text } = await this.llm.generate(message, { tools: this.tools.all() });
    return { text };
  }
}

/** Environment variables the tests set, restored after each app. */
const ENV_KEYS = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
];
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

function setEnv(values: Record<string, string>): void {
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, values);
}

function restoreEnv(): void {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
}

interface Running {
  app: App;
  base: string;
}

async function start(telemetry: Record<string, unknown>): Promise<Running> {
  const app = new App({
    controllers: [ShopController],
    providers: [AddingTools],
    logger: false,
    cwd: '/nonexistent',
    config: { llm: { default_model: 'gpt-4o-mini' }, telemetry },
  });
  const server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
  return { app, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const serverSpan = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan | undefined =>
  spans.find((span) => span.kind === SERVER && span.name === name);

/** Whether `span` descends from `ancestor` through the spans received. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, all: readonly ReceivedSpan[]) {
  let parentId = span.parentSpanId;
  for (let hops = 0; parentId !== '' && hops < all.length; hops++) {
    if (parentId === ancestor.spanId) return true;
    parentId = all.find((candidate) => candidate.spanId === parentId)?.parentSpanId ?? '';
  }
  return false;
}

describe('OpenTelemetry traces exported over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let fake: FakeLlmServer;
  let running: Running;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    fake = await startFakeLlmServer();
    setEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.openaiBaseURL,
    });
    running = await start({ enabled: true, service_name: 'shop' });
  });
  afterAll(async () => {
    await running.app.close();
    await fake.close();
    await receiver.close();
    restoreEnv();
  });

  it('exports the HTTP server span, named by its route pattern, with the request id', async () => {
    const res = await fetch(`${running.base}/items/42`);
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const spans = await receiver.waitForSpans((all) => !!serverSpan(all, 'GET /items/:id'));
    const span = serverSpan(spans, 'GET /items/:id');
    expect(span).toMatchObject({
      scope: HTTP_INSTRUMENTATION,
      parentSpanId: '',
      attributes: expect.objectContaining({
        'http.route': '/items/:id',
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'toolkit.request.id': requestId,
      }) as unknown,
      resource: expect.objectContaining({ 'service.name': 'shop' }) as unknown,
    });
  });

  it('names a request no route matches by its method only, never by its path', async () => {
    const res = await fetch(`${running.base}/nothing/here/7`);
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id');
    const spans = await receiver.waitForSpans((all) =>
      all.some((span) => span.attributes['toolkit.request.id'] === requestId),
    );
    const span = spans.find((s) => s.attributes['toolkit.request.id'] === requestId);
    expect(span?.name).toBe('GET');
    expect(span?.attributes['http.route']).toBeUndefined();
    expect(span?.attributes['http.response.status_code']).toBe(404);
  });

  it('continues the trace of an incoming W3C traceparent', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const res = await fetch(`${running.base}/items/7`, {
      headers: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(res.status).toBe(200);
    const spans = await receiver.waitForSpans((all) => all.some((s) => s.traceId === traceId));
    const span = spans.find((s) => s.traceId === traceId);
    expect(span).toMatchObject({ name: 'GET /items/:id', kind: SERVER, parentSpanId: parentId });
  });

  it("nests an agent request's LLM and tool spans under its HTTP server span", async () => {
    fake.reset();
    fake.script(
      { kind: 'reply', toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }] },
      { kind: 'reply', text: 'It is 5.' },
    );
    const res = await fetch(`${running.base}/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'What is 2 + 3?' }),
    });
    expect(await res.json()).toEqual({ text: 'It is 5.' });
    const names = ['invoke_agent', 'chat gpt-4o-mini', 'execute_tool add'];
    const spans = await receiver.waitForSpans((all) => {
      const root = serverSpan(all, 'POST /agent');
      const inTrace = all.filter((span) => span.traceId === root?.traceId);
      return names.every((name) => inTrace.some((span) => span.name.startsWith(name)));
    });
    const root = serverSpan(spans, 'POST /agent') as ReceivedSpan;
    const trace = spans.filter((span) => span.traceId === root.traceId && span !== root);
    for (const name of names) {
      const span = trace.find((s) => s.name.startsWith(name)) as ReceivedSpan;
      expect({ name, underServerSpan: descendsFrom(span, root, spans) }).toEqual({
        name,
        underServerSpan: true,
      });
    }
    // Two model calls (the tool call, then the answer), each a `chat` span.
    expect(trace.filter((s) => s.name === 'chat gpt-4o-mini')).toHaveLength(2);
  });
});

describe('closing a tracing app', () => {
  afterEach(restoreEnv);

  it('sends the spans of the last request before close() resolves', async () => {
    const receiver = await OtlpReceiver.start();
    // A batch delay longer than any test: only the flush at close can send the span.
    setEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const { app, base } = await start({ enabled: true });
    const res = await fetch(`${base}/items/last`);
    const requestId = res.headers.get('x-request-id');
    await app.close();
    expect(receiver.spans.map((s) => s.attributes['toolkit.request.id'])).toContain(requestId);
    await receiver.close();
  });

  it('exports protobuf by default (http/protobuf)', async () => {
    const receiver = await OtlpReceiver.start();
    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '600000' });
    const { app, base } = await start({ enabled: true });
    expect((await fetch(`${base}/items/1`)).status).toBe(200);
    const dropped = droppedSpanCount();
    await app.close();
    expect(receiver.exports.length).toBeGreaterThan(0);
    for (const received of receiver.exports) {
      expect(received).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
      expect(received.bytes).toBeGreaterThan(0);
    }
    expect(droppedSpanCount()).toBe(dropped);
    await receiver.close();
  });
});

/** A port nothing listens on (one a server had a moment ago). */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `droppedSpanCount()` until it passes `before`; the limit is generous, not a claim. */
async function droppedAbove(before: number): Promise<number> {
  for (let waited = 0; waited < 60_000 && droppedSpanCount() <= before; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return droppedSpanCount();
}

/**
 * The closed port fails every export at once (the spans of failed exports are counted); the
 * black hole holds the first export for longer than the test (its timeout is a minute), so the
 * spans counted there are the ones a full queue dropped.
 */
describe.each([
  [
    'a closed port',
    '300',
    async () => ({ url: `http://127.0.0.1:${await closedPort()}`, close: () => Promise.resolve() }),
  ],
  [
    'a server that accepts and never answers',
    '60000',
    async () => {
      const hole = await OtlpReceiver.start('black-hole');
      return { url: hole.url, close: () => hole.close() };
    },
  ],
])('an unreachable OTLP endpoint: %s', (_name, exportTimeout, endpoint) => {
  afterEach(restoreEnv);

  it('fails no request, counts the lost spans, and closes cleanly', async () => {
    const target = await endpoint();
    setEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: target.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TIMEOUT: exportTimeout,
      OTEL_BSP_SCHEDULE_DELAY: '10',
      OTEL_BSP_MAX_QUEUE_SIZE: '8',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4',
    });
    const { app, base } = await start({ enabled: true, metrics: true });
    const before = droppedSpanCount();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(`${base}/items/${i}`).then((res) => res.status)),
    );
    expect(statuses).toEqual(Array.from({ length: 50 }, () => 200));
    expect(await droppedAbove(before)).toBeGreaterThan(before);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const line = metrics.split('\n').find((l) => l.startsWith('toolkit_trace_spans_dropped_total'));
    expect(Number(line?.split(' ')[1])).toBeGreaterThan(0);
    await app.close();
    await target.close();
  });
});

@Controller('host')
class HostController {
  constructor(private readonly llm: LLM) {}

  @Get('ask')
  async ask(@Query('q') question: string) {
    return { answer: await this.llm.chat(question) };
  }
}

describe('a Nest application of its own importing ToolkitModule', () => {
  afterEach(restoreEnv);

  it('exports the server span with the LLM span of the request under it', async () => {
    const receiver = await OtlpReceiver.start();
    setEnv({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '20',
    });
    @Module({
      imports: [
        ToolkitModule.forRoot({
          cwd: '/nonexistent',
          config: { llm: { default_model: 'echo' }, telemetry: { enabled: true } },
        }),
      ],
      controllers: [HostController],
    })
    class HostModule {}
    const nest = await NestFactory.create(HostModule, testAdapter(), { logger: false });
    try {
      await nest.listen(0, '127.0.0.1');
      const { port } = (nest.getHttpServer() as Server).address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/host/ask?q=hello`);
      expect(res.status).toBe(200);
      const spans = await receiver.waitForSpans((all) =>
        all.some((span) => span.name === 'chat echo'),
      );
      const chat = spans.find((span) => span.name === 'chat echo') as ReceivedSpan;
      const root = spans.find((span) => span.kind === SERVER && span.traceId === chat.traceId);
      expect(root?.scope).toBe(HTTP_INSTRUMENTATION);
      expect(descendsFrom(chat, root as ReceivedSpan, spans)).toBe(true);
    } finally {
      await nest.close();
      await receiver.close();
    }
  });
});
