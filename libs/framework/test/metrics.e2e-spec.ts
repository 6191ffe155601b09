/**
 * Prometheus metrics of an `App` (`telemetry.metrics`), checked with the real thing: the output
 * of `GET /metrics` passes `promtool check metrics`, and a real Prometheus server (Debian's
 * `prometheus`, see scripts/setup-machine.sh) scrapes the app under a small load of JSON and
 * streamed LLM requests; its HTTP API then gives request counts by route pattern and status,
 * and token and cost sums equal to what the model reported. Off by default (no route); a scrape
 * stays bounded whatever paths were asked; `telemetry.metrics_token` asks for a bearer token.
 * Runs on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Arg, Cache, LLM, Route, Stream } from 'toolkit';
import { createTestingApp } from 'toolkit/testing';
import type { UsageReport } from 'toolkit/providers';
import { PrometheusServer, promtoolCheck, type VectorSample } from './support/prometheus-server.js';

const TOKEN = 'scrape-secret-7f3a';
/** USD per 1M tokens of the echo model here, so that its calls have a cost. */
const PRICES = { echo: { input: 1000, output: 2000 } };
const reports: UsageReport[] = [];
const record = (report: UsageReport): number => reports.push(report);

@Controller()
class ShopController {
  constructor(private readonly llm: LLM) {}

  @Route('/items/:id', { methods: ['GET'] })
  item(@Arg('id') id: string) {
    return { id };
  }

  @Route('/prices/:sku', { methods: ['GET'] })
  @Cache({ ttl: 60 })
  price(@Arg('sku') sku: string) {
    return { sku, usd: 3 };
  }

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('question') question: string) {
    return { answer: await this.llm.chat(question, { onUsage: record }) };
  }

  @Route('/ask/stream', { methods: ['POST'] })
  @Stream()
  async *askStream(@Arg('question') question: string) {
    yield* await this.llm.chat(question, { stream: true, onUsage: record });
  }
}

interface Running {
  app: App;
  base: string;
}

async function start(telemetry: Record<string, unknown> | undefined): Promise<Running> {
  const app = new App({
    controllers: [ShopController],
    logger: false,
    config: {
      llm: { default_model: 'echo', prices: PRICES },
      ...(telemetry ? { telemetry } : {}),
    },
  });
  const server: Server = await app.run({ host: '127.0.0.1', port: 0, announce: false });
  return { app, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const post = (base: string, path: string, body: unknown): Promise<string> =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((res) => res.text());

const scrape = (base: string, token = TOKEN): Promise<Response> =>
  fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });

const value = (samples: VectorSample[], labels: Record<string, string>): number =>
  Number(
    samples.find((s) => Object.entries(labels).every(([k, v]) => s.metric[k] === v))?.value[1] ??
      NaN,
  );

describe('GET /metrics is off by default', () => {
  let running: Running;
  beforeAll(async () => (running = await start(undefined)));
  afterAll(() => running.app.close());

  it('has no /metrics route', async () => {
    const res = await fetch(`${running.base}/metrics`);
    expect(res.status).toBe(404);
  });
});

describe('GET /metrics scraped by a real Prometheus (telemetry.metrics: true)', () => {
  let running: Running;
  let prometheus: PrometheusServer | undefined;
  const JSON_CALLS = 5;
  const STREAM_CALLS = 3;

  beforeAll(async () => {
    running = await start({ metrics: true, metrics_token: TOKEN });
    for (let i = 0; i < 4; i++) await fetch(`${running.base}/items/${i}`);
    await fetch(`${running.base}/nowhere/1`);
    for (const sku of ['a', 'a', 'a', 'b']) await fetch(`${running.base}/prices/${sku}`);
    for (let i = 0; i < JSON_CALLS; i++) {
      await post(running.base, '/ask', { question: `What is item ${i} made of?` });
    }
    for (let i = 0; i < STREAM_CALLS; i++) {
      const text = await post(running.base, '/ask/stream', { question: `Tell me ${i} things` });
      expect(text).toContain('data:');
    }
    await post(running.base, '/ask', {}); // 422: no question
  });

  afterAll(async () => {
    await prometheus?.stop();
    await running.app.close();
  });

  it('answers the Prometheus text format, which promtool accepts', async () => {
    const res = await scrape(running.base);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(text).toContain('# TYPE gen_ai_client_token_usage histogram');
    expect(text).toContain('# TYPE gen_ai_client_operation_duration_seconds histogram');
    expect(text).toContain('# TYPE toolkit_llm_cost_usd_total counter');
    expect(text).toContain('# TYPE toolkit_sse_streams_open gauge');
    expect(text).toContain('# TYPE toolkit_cache_requests_total counter');
    expect(text).toContain('# TYPE toolkit_resumable_streams_running gauge');
    const checked = await promtoolCheck(text);
    expect(checked).toEqual({ code: 0, output: '' });
  });

  it('gives Prometheus requests by route pattern and status, tokens and cost as reported', async () => {
    const [host, port] = new URL(running.base).host.split(':');
    prometheus = await PrometheusServer.start(`${host}:${port}`, TOKEN);
    const counts = await prometheus.until(
      'sum by (http_request_method, http_route, http_response_status_code) (http_server_request_duration_seconds_count)',
      (samples) =>
        value(samples, { http_route: '/ask/stream' }) === STREAM_CALLS &&
        value(samples, { http_route: '/metrics', http_response_status_code: '200' }) >= 1,
    );
    const count = (method: string, route: string | undefined, status: string): number =>
      value(
        counts.filter((s) => s.metric.http_route === route),
        { http_request_method: method, http_response_status_code: status },
      );
    expect(count('GET', '/items/:id', '200')).toBe(4);
    expect(count('POST', '/ask', '200')).toBe(JSON_CALLS);
    expect(count('POST', '/ask', '422')).toBe(1);
    expect(count('POST', '/ask/stream', '200')).toBe(STREAM_CALLS);
    expect(count('GET', undefined, '404')).toBe(1);
    for (const sample of counts) expect(sample.metric.http_route ?? '').not.toMatch(/\d/);

    const sum = (key: 'inputTokens' | 'outputTokens' | 'costUsd'): number =>
      reports.reduce((total, r) => total + (r[key] ?? 0), 0);
    expect(reports).toHaveLength(JSON_CALLS + STREAM_CALLS);
    const tokens = await prometheus.until(
      'sum by (gen_ai_token_type, gen_ai_provider_name, gen_ai_request_model, gen_ai_operation_name) (gen_ai_client_token_usage_sum)',
      (samples) => samples.length === 2,
    );
    const labels = {
      gen_ai_provider_name: 'echo',
      gen_ai_request_model: 'echo',
      gen_ai_operation_name: 'chat',
    };
    expect(value(tokens, { ...labels, gen_ai_token_type: 'input' })).toBe(sum('inputTokens'));
    expect(value(tokens, { ...labels, gen_ai_token_type: 'output' })).toBe(sum('outputTokens'));
    const calls = await prometheus.query(
      'sum(gen_ai_client_token_usage_count{gen_ai_token_type="input"})',
    );
    expect(Number(calls[0]?.value[1])).toBe(JSON_CALLS + STREAM_CALLS);
    const cost = await prometheus.query(
      'sum(toolkit_llm_cost_usd_total{gen_ai_request_model="echo"})',
    );
    expect(sum('costUsd')).toBeGreaterThan(0);
    expect(Number(cost[0]?.value[1])).toBeCloseTo(sum('costUsd'), 12);
    const durations = await prometheus.query(
      'sum by (gen_ai_request_model) (gen_ai_client_operation_duration_seconds_count)',
    );
    expect(value(durations, { gen_ai_request_model: 'echo' })).toBe(JSON_CALLS + STREAM_CALLS);
    const seconds = await prometheus.query('sum(gen_ai_client_operation_duration_seconds_sum)');
    const reported = reports.reduce((total, r) => total + (r.durationMs ?? 0), 0) / 1000;
    expect(Number(seconds[0]?.value[1])).toBeCloseTo(reported, 9);
    const cache = await prometheus.query('toolkit_cache_requests_total');
    expect(value(cache, { http_route: '/prices/:sku', toolkit_cache_result: 'hit' })).toBe(2);
    expect(value(cache, { http_route: '/prices/:sku', toolkit_cache_result: 'miss' })).toBe(2);
    const open = await prometheus.query('toolkit_sse_streams_open');
    expect(Number(open[0]?.value[1])).toBe(0);
  }, 60_000);

  it('stays bounded whatever paths are asked: route patterns, never paths', async () => {
    const before = (await (await scrape(running.base)).text()).split('\n').length;
    for (let i = 0; i < 200; i++) {
      await fetch(`${running.base}/items/${1000 + i}`);
      await fetch(`${running.base}/nowhere/${i}?q=${i}`);
    }
    const text = await (await scrape(running.base)).text();
    expect(text.split('\n').length).toBe(before);
    expect(text).not.toMatch(/\/items\/\d|\/nowhere/);
  });

  it('answers 401 without the bearer token of telemetry.metrics_token', async () => {
    expect((await fetch(`${running.base}/metrics`)).status).toBe(401);
    const wrong = await scrape(running.base, 'not-it');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('http_server');
  });
});

describe('createTestingApp with telemetry.metrics', () => {
  it('serves /metrics too, counting the requests it answered', async () => {
    const { client, close } = await createTestingApp({
      controllers: [ShopController],
      config: { telemetry: { metrics: true } },
    });
    try {
      expect((await client.get('/items/3')).statusCode).toBe(200);
      const res = await client.get('/metrics');
      expect(res.statusCode).toBe(200);
      expect(res.text()).toMatch(
        /http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/items\/:id",http_response_status_code="200"\} 1/,
      );
    } finally {
      await close();
    }
  });
});
