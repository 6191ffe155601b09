/**
 * An app that registered its own OpenTelemetry tracer provider before toolkit started (as
 * `@opentelemetry/sdk-node` does): toolkit sends its spans there, replaces nothing and shuts
 * nothing down, and, with no HTTP instrumentation of the app's, makes the HTTP server span itself
 * (named by route, with the request id, continuing an incoming `traceparent`, the request's LLM
 * span under it). Real SDK, spans kept in its in-memory exporter. Runs on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { App, Arg, LLM, Route } from 'toolkit';
import { createTestingApp } from 'toolkit/testing';

@Controller()
class AskController {
  constructor(private readonly llm: LLM) {}

  @Route('/ask/:topic', { methods: ['GET'] })
  async ask(@Arg('topic') topic: string) {
    return { answer: await this.llm.chat(`Tell me about ${topic}`) };
  }
}

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** The first finished span `match` accepts, once one ended (polled; the limit is generous). */
async function finished(
  exporter: InMemorySpanExporter,
  match: (span: ReadableSpan) => boolean,
): Promise<ReadableSpan | undefined> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    const span = exporter.getFinishedSpans().find(match);
    if (span) return span;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

describe("an app's own tracer provider", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let app: App;
  let base: string;

  beforeAll(async () => {
    provider.register();
    app = new App({
      controllers: [AskController],
      logger: false,
      cwd: '/nonexistent',
      config: { llm: { default_model: 'echo' }, telemetry: { enabled: true } },
    });
    const server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('gets toolkit server span, with the LLM span under it, in the trace of the caller', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${base}/ask/otters`, {
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(res.status).toBe(200);
    await res.json();
    const ofTrace = (s: ReadableSpan) => s.spanContext().traceId === traceId;
    const server = await finished(exporter, (s) => ofTrace(s) && s.kind === SpanKind.SERVER);
    const spans = exporter.getFinishedSpans().filter(ofTrace);
    expect(server).toBeDefined();
    expect(server?.name).toBe('GET /ask/:topic');
    expect(server?.instrumentationScope.name).toBe('toolkit');
    expect(parentOf(server as ReadableSpan)).toBe(callerSpanId);
    expect(server?.attributes).toMatchObject({
      'http.route': '/ask/:topic',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'toolkit.request.id': res.headers.get('x-request-id'),
    });
    const chat = spans.find((s) => s.name === 'chat echo');
    expect(chat && parentOf(chat)).toBe(server?.spanContext().spanId);
  });

  it('traces requests a TestClient sends in process (no socket, no HTTP instrumentation)', async () => {
    const testing = await createTestingApp({
      controllers: [AskController],
      config: { telemetry: { enabled: true } },
    });
    try {
      const res = await testing.client.get('/ask/seals');
      expect(res.statusCode).toBe(200);
      const requestId = res.headers['x-request-id'];
      const server = await finished(
        exporter,
        (s) => s.kind === SpanKind.SERVER && s.attributes['toolkit.request.id'] === requestId,
      );
      expect(server?.name).toBe('GET /ask/:topic');
      const chat = exporter
        .getFinishedSpans()
        .find((s) => s.name === 'chat echo' && parentOf(s) === server?.spanContext().spanId);
      expect(chat).toBeDefined();
    } finally {
      await testing.close();
    }
  });

  it('leaves the provider registered and running once the app closed', async () => {
    await app.close();
    exporter.reset();
    trace.getTracer('after').startSpan('still-here').end();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['still-here']);
  });
});
