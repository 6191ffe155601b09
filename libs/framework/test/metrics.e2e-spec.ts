/**
 * Prometheus metrics of an `App` (`telemetry.metrics`), checked with the real thing: the output
 * of `GET /metrics` passes `promtool check metrics`, and a real Prometheus server (Debian's
 * `prometheus`, see scripts/setup-machine.sh) scrapes the app under a small load of JSON and
 * streamed LLM requests; its HTTP API then gives request counts by route pattern and status,
 * and token and cost sums equal to what the model reported, the time to first token of each
 * streamed call, one budget refusal per refused request (JSON and streamed) and the failures of
 * memory and cache backends that cannot be reached (Redis at a closed port). Off by default (no route); a
 * scrape stays bounded whatever paths were asked; `telemetry.metrics_token` asks for a bearer token.
 * Runs on Express and on Fastify.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, Arg, Cache, LLM, MemoryService, Route, Stream } from 'toolkit';
import { createTestingApp } from 'toolkit/testing';
import type { UsageReport } from 'toolkit/providers';
import { freePort } from '../../providers/test/state/support/timing.js';
import { PrometheusServer, promtoolCheck, type VectorSample } from './support/prometheus-server.js';

const TOKEN = 'scrape-secret-7f3a';
/** USD per 1M tokens of the echo model here, so that its calls have a cost. */
const PRICES = { echo: { input: 1000, output: 2000 } };
/** A daily budget any one echo call spends: a user's second call is refused. */
const BUDGET_USD = 1e-9;
const reports: UsageReport[] = [];
const record = (report: UsageReport): number => reports.push(report);

@Controller()
class ShopController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
  ) {}

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

  @Route('/users/:user/ask', { methods: ['POST'] })
  async askAs(@Arg('user') user: string, @Arg('question') question: string) {
    return { answer: await this.llm.chat(question, { userId: user, onUsage: record }) };
  }

  @Route('/users/:user/ask/stream', { methods: ['POST'] })
  @Stream()
  async *askAsStream(@Arg('user') user: string, @Arg('question') question: string) {
    yield* await this.llm.chat(question, { stream: true, userId: user, onUsage: record });
  }

  @Route('/users/:user/notes', { methods: ['POST'] })
  async note(@Arg('user') user: string, @Arg('text') text: string) {
    await this.memory.for(user).add('user', text);
    return { saved: true };
  }
}

interface Running {
  app: App;
  base: string;
}

async function start(
  telemetry: Record<string, unknown> | undefined,
  backends: Record<string, unknown> = {},
): Promise<Running> {
  const app = new App({
    controllers: [ShopController],
    logger: false,
    cwd: '/nonexistent',
    config: {
      llm: {
        default_model: 'echo',
        prices: PRICES,
        budget: { per_user_usd_per_day: BUDGET_USD },
      },
      ...backends,
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
  /** Refused: two JSON requests and one streamed, all after the user's first (allowed) call. */
  const REFUSALS = 3;
  const refusedStatuses: number[] = [];

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
    await post(running.base, '/users/ada/ask', { question: 'Spend my budget' });
    for (const path of ['/users/ada/ask', '/users/ada/ask', '/users/ada/ask/stream']) {
      const res = await fetch(`${running.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'And again?' }),
      });
      await res.arrayBuffer();
      refusedStatuses.push(res.status);
    }
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
    expect(text).toContain('# TYPE gen_ai_client_operation_time_to_first_chunk_seconds histogram');
    expect(text).toContain('# TYPE toolkit_llm_budget_refusals_total counter');
    expect(text).toContain('# TYPE toolkit_backend_errors_total counter');
    // A user's calls were made (ada's), but cost by user was not asked for.
    expect(text).not.toContain('user_id');
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
    // The budgeted user's first call is answered and reported; the refused ones never ran.
    const CALLS = JSON_CALLS + STREAM_CALLS + 1;
    expect(reports).toHaveLength(CALLS);
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
    expect(Number(calls[0]?.value[1])).toBe(CALLS);
    const cost = await prometheus.query(
      'sum(toolkit_llm_cost_usd_total{gen_ai_request_model="echo"})',
    );
    expect(sum('costUsd')).toBeGreaterThan(0);
    expect(Number(cost[0]?.value[1])).toBeCloseTo(sum('costUsd'), 12);
    const durations = await prometheus.query(
      'sum by (gen_ai_request_model) (gen_ai_client_operation_duration_seconds_count)',
    );
    expect(value(durations, { gen_ai_request_model: 'echo' })).toBe(CALLS);
    const seconds = await prometheus.query('sum(gen_ai_client_operation_duration_seconds_sum)');
    const reported = reports.reduce((total, r) => total + (r.durationMs ?? 0), 0) / 1000;
    expect(Number(seconds[0]?.value[1])).toBeCloseTo(reported, 9);
    const cache = await prometheus.query('toolkit_cache_requests_total');
    expect(value(cache, { http_route: '/prices/:sku', toolkit_cache_result: 'hit' })).toBe(2);
    expect(value(cache, { http_route: '/prices/:sku', toolkit_cache_result: 'miss' })).toBe(2);
    const open = await prometheus.query('toolkit_sse_streams_open');
    expect(Number(open[0]?.value[1])).toBe(0);

    // Time to first token: one observation per streamed call (none for the JSON ones), summing
    // what the model reported.
    const streamed = reports.filter((r) => r.timeToFirstTokenMs !== undefined);
    expect(streamed).toHaveLength(STREAM_CALLS);
    const ttft = await prometheus.query(
      'sum by (gen_ai_provider_name, gen_ai_request_model) (gen_ai_client_operation_time_to_first_chunk_seconds_count)',
    );
    expect(value(ttft, { gen_ai_provider_name: 'echo', gen_ai_request_model: 'echo' })).toBe(
      STREAM_CALLS,
    );
    const ttftSum = await prometheus.query(
      'sum(gen_ai_client_operation_time_to_first_chunk_seconds_sum)',
    );
    const firstTokens = streamed.reduce((total, r) => total + (r.timeToFirstTokenMs ?? 0), 0);
    expect(Number(ttftSum[0]?.value[1])).toBeCloseTo(firstTokens / 1000, 9);
  }, 60_000);

  it('counts each request refused for a spent budget once, JSON and streamed', async () => {
    expect(refusedStatuses).toEqual([429, 429, 429]);
    const refusals = await (prometheus as PrometheusServer).query(
      'toolkit_llm_budget_refusals_total',
    );
    expect(Number(refusals[0]?.value[1])).toBe(REFUSALS);
    const refused = await (prometheus as PrometheusServer).query(
      'sum(http_server_request_duration_seconds_count{http_response_status_code="429"})',
    );
    expect(Number(refused[0]?.value[1])).toBe(REFUSALS);
  });

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

describe('memory and cache backends that cannot be reached (telemetry.metrics: true)', () => {
  const REQUESTS = 2;
  let running: Running;
  beforeAll(async () => {
    // Nothing listens on this port: every memory operation fails (MemoryUnavailableError, 503),
    // every cache operation too (CacheUnavailableError; the route then runs uncached).
    const url = `redis://127.0.0.1:${await freePort()}`;
    running = await start(
      { metrics: true },
      {
        memory: { backend: 'redis', redis_url: url, timeout: 1 },
        cache: { backend: 'redis', redis_url: url, timeout: 1 },
      },
    );
  });
  afterAll(() => running.app.close());

  it('counts their failures by backend', async () => {
    for (let i = 0; i < REQUESTS; i++) {
      const note = await fetch(`${running.base}/users/bob/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `note ${i}` }),
      });
      expect(note.status).toBe(503);
      await note.arrayBuffer();
      const price = await fetch(`${running.base}/prices/a`);
      expect(price.status).toBe(200);
      expect(await price.json()).toEqual({ sku: 'a', usd: 3 });
    }
    const text = await (await fetch(`${running.base}/metrics`)).text();
    const count = (backend: string): number =>
      Number(
        new RegExp(`^toolkit_backend_errors_total\\{backend="${backend}"\\} (\\S+)$`, 'm').exec(
          text,
        )?.[1],
      );
    // One failed memory operation per request, its 503.
    expect(count('memory')).toBe(REQUESTS);
    // At least the read of each request (a cache failure costs the route no answer).
    expect(count('cache')).toBeGreaterThanOrEqual(REQUESTS);
    expect(count('stream_log')).toBe(0);
    expect(text).toContain('\ntoolkit_llm_budget_refusals_total 0\n');
    expect(await promtoolCheck(text)).toEqual({ code: 0, output: '' });
  });
});

describe('cost by user, when asked (telemetry.metrics_cost_by_user)', () => {
  let running: Running;
  beforeAll(async () => (running = await start({ metrics: true, metrics_cost_by_user: true })));
  afterAll(() => running.app.close());

  it("counts each user's cost as their calls reported it, and no series for calls without one", async () => {
    const before = reports.length;
    await post(running.base, '/users/ana/ask', { question: 'What does a kettle cost?' });
    const streamed = await post(running.base, '/users/bo%20"b"/ask/stream', { question: 'Hi' });
    expect(streamed).toContain('data:');
    await post(running.base, '/ask', { question: 'Nobody in particular' });
    const made = reports.slice(before);
    const costOf = (user: string): number =>
      made.filter((r) => r.userId === user).reduce((sum, r) => sum + (r.costUsd ?? 0), 0);
    expect(costOf('ana')).toBeGreaterThan(0);
    expect(costOf('bo "b"')).toBeGreaterThan(0);
    expect(made.filter((r) => r.userId === undefined)).toHaveLength(1);

    const text = await (await scrape(running.base)).text();
    const series = text
      .split('\n')
      .filter((line) => line.startsWith('toolkit_llm_user_cost_usd_total{'));
    expect(series).toEqual([
      `toolkit_llm_user_cost_usd_total{user_id="ana"} ${costOf('ana')}`,
      `toolkit_llm_user_cost_usd_total{user_id="bo \\"b\\""} ${costOf('bo "b"')}`,
    ]);
    expect(await promtoolCheck(text)).toEqual({ code: 0, output: '' });
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
