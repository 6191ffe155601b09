/**
 * `telemetry.http_instrumentation: false`: with OpenTelemetry's HTTP instrumentation installed,
 * toolkit makes the HTTP server span itself, and it carries what the instrumentation's would
 * (name by route pattern, route, method, status, request id, an incoming `traceparent`
 * continued) with the request's LLM spans under it. Exported over OTLP/HTTP with the real SDK to
 * the receiver in support/otlp-receiver.ts. Runs on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { App, Arg, LLM, Route } from 'toolkit';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';

const SERVER = 2;

@Controller()
class ShopController {
  constructor(private readonly llm: LLM) {}

  @Route('/items/:id', { methods: ['GET'] })
  item(@Arg('id') id: string) {
    return { id };
  }

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('question') question: string) {
    return { answer: await this.llm.chat(question) };
  }
}

const ENV_KEYS = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_BSP_SCHEDULE_DELAY',
];
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

const serverSpan = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan | undefined =>
  spans.find((span) => span.kind === SERVER && span.name === name);

describe('telemetry.http_instrumentation: false (toolkit makes the HTTP server span)', () => {
  let receiver: OtlpReceiver;
  let app: App;
  let base: string;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '20',
    });
    app = new App({
      controllers: [ShopController],
      logger: false,
      cwd: '/nonexistent',
      config: {
        llm: { default_model: 'echo' },
        telemetry: { enabled: true, service_name: 'shop', http_instrumentation: false },
      },
    });
    const server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it("gives the server span toolkit's scope, the route pattern, status and request id", async () => {
    const res = await fetch(`${base}/items/42`);
    expect(res.status).toBe(200);
    const spans = await receiver.waitForSpans((all) => !!serverSpan(all, 'GET /items/:id'));
    expect(serverSpan(spans, 'GET /items/:id')).toMatchObject({
      scope: 'toolkit',
      parentSpanId: '',
      attributes: expect.objectContaining({
        'http.route': '/items/:id',
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'toolkit.request.id': res.headers.get('x-request-id'),
      }) as unknown,
      resource: expect.objectContaining({ 'service.name': 'shop' }) as unknown,
    });
    expect(spans.some((span) => span.scope === '@opentelemetry/instrumentation-http')).toBe(false);
  });

  it('continues an incoming traceparent, with the LLM span under the server span', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const res = await fetch(`${base}/ask`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${parentId}-01`,
      },
      body: JSON.stringify({ question: 'Hello?' }),
    });
    expect(res.status).toBe(200);
    const spans = await receiver.waitForSpans((all) =>
      all.some((s) => s.traceId === traceId && s.name === 'chat echo'),
    );
    const root = spans.find((s) => s.traceId === traceId && s.kind === SERVER);
    expect(root).toMatchObject({ name: 'POST /ask', scope: 'toolkit', parentSpanId: parentId });
    const chat = spans.find((s) => s.traceId === traceId && s.name === 'chat echo');
    expect(chat?.parentSpanId).toBe(root?.spanId);
  });
});
