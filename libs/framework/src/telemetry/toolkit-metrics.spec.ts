import { describe, expect, it } from '@jest/globals';
import { MAX_COST_USERS, ToolkitMetrics } from './toolkit-metrics.js';

const metrics = (): ToolkitMetrics =>
  new ToolkitMetrics({ openStreams: () => 2, runningResumable: () => 1 });

describe('ToolkitMetrics', () => {
  it('labels requests by method, route pattern and status; unknown methods are _OTHER', () => {
    const m = metrics();
    m.recordRequest({ method: 'GET', route: '/items/:id', status: 200, durationSeconds: 0.003 });
    m.recordRequest({ method: 'BREW', route: undefined, status: 404, durationSeconds: 0.001 });
    const text = m.registry.render();
    expect(text).toContain(
      'http_server_request_duration_seconds_count{http_request_method="GET",http_route="/items/:id",http_response_status_code="200"} 1',
    );
    expect(text).toContain(
      'http_server_request_duration_seconds_count{http_request_method="_OTHER",http_response_status_code="404"} 1',
    );
    expect(text).toContain(
      'http_server_request_duration_seconds_bucket{http_request_method="GET",http_route="/items/:id",http_response_status_code="200",le="0.005"} 1',
    );
  });

  it('counts tokens by type, duration and cost of a usage report; no cost when unpriced', () => {
    const m = metrics();
    const base = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      finishReason: 'stop' as const,
      steps: 1,
    };
    m.recordUsage({
      ...base,
      inputTokens: 10,
      outputTokens: 20,
      totalTokens: 30,
      costUsd: 0.5,
      durationMs: 250,
    });
    m.recordUsage({ ...base, model: 'mine', inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    const text = m.registry.render();
    const labels =
      'gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o-mini"';
    expect(text).toContain(`gen_ai_client_token_usage_sum{${labels},gen_ai_token_type="input"} 10`);
    expect(text).toContain(
      `gen_ai_client_token_usage_sum{${labels},gen_ai_token_type="output"} 20`,
    );
    expect(text).toContain(`gen_ai_client_operation_duration_seconds_sum{${labels}} 0.25`);
    expect(text).toContain(
      'toolkit_llm_cost_usd_total{gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o-mini"} 0.5',
    );
    expect(text).not.toContain(
      'toolkit_llm_cost_usd_total{gen_ai_provider_name="openai",gen_ai_request_model="mine"}',
    );
    expect(text).not.toMatch(/gen_ai_client_operation_duration_seconds_count\{[^}]*"mine"/);
  });

  it('counts cost by user only when asked, at most MAX_COST_USERS of them, then _other', () => {
    const report = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      finishReason: 'stop' as const,
      steps: 1,
      inputTokens: 1,
      outputTokens: 1,
      totalTokens: 2,
      costUsd: 0.25,
    };
    const plain = metrics();
    plain.recordUsage({ ...report, userId: 'ana' });
    expect(plain.registry.render()).not.toContain('user_id');

    const byUser = new ToolkitMetrics(
      { openStreams: () => 0, runningResumable: () => 0 },
      { costByUser: true },
    );
    byUser.recordUsage({ ...report, userId: 'ana' });
    byUser.recordUsage({ ...report, userId: 'ana' });
    byUser.recordUsage({ ...report, userId: 'say "hi"\n' });
    byUser.recordUsage(report); // no userId: counted in the total only
    for (let i = 0; i < MAX_COST_USERS + 5; i += 1) {
      byUser.recordUsage({ ...report, userId: `u${i}` });
    }
    const text = byUser.registry.render();
    expect(text).toContain('toolkit_llm_user_cost_usd_total{user_id="ana"} 0.5');
    expect(text).toContain('toolkit_llm_user_cost_usd_total{user_id="say \\"hi\\"\\n"} 0.25');
    const series = text
      .split('\n')
      .filter((line) => line.startsWith('toolkit_llm_user_cost_usd_total{'));
    expect(series).toHaveLength(MAX_COST_USERS + 1);
    // ana, the quoted one and u0..u997 have their own; u998 and later share _other.
    expect(text).toContain('toolkit_llm_user_cost_usd_total{user_id="u997"} 0.25');
    expect(text).not.toContain('user_id="u998"');
    expect(text).toContain('toolkit_llm_user_cost_usd_total{user_id="_other"} 1.75');
  });

  it('counts @Cache() outcomes by route pattern', () => {
    const m = metrics();
    const request = { method: 'GET', route: '/prices/:sku', status: 200, durationSeconds: 0.001 };
    m.recordRequest({ ...request, cache: 'miss' });
    m.recordRequest({ ...request, cache: 'hit' });
    m.recordRequest({ ...request, cache: 'hit' });
    m.recordRequest(request);
    const text = m.registry.render();
    expect(text).toContain(
      'toolkit_cache_requests_total{http_route="/prices/:sku",toolkit_cache_result="hit"} 2',
    );
    expect(text).toContain(
      'toolkit_cache_requests_total{http_route="/prices/:sku",toolkit_cache_result="miss"} 1',
    );
  });

  it('times the first chunk of streamed calls only', () => {
    const m = metrics();
    const report = {
      provider: 'openai',
      model: 'gpt-4o-mini',
      finishReason: 'stop' as const,
      steps: 1,
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
    };
    m.recordUsage({ ...report, timeToFirstTokenMs: 120 });
    m.recordUsage(report);
    const labels =
      'gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model="gpt-4o-mini"';
    const text = m.registry.render();
    expect(text).toContain(
      `gen_ai_client_operation_time_to_first_chunk_seconds_count{${labels}} 1`,
    );
    expect(text).toContain(
      `gen_ai_client_operation_time_to_first_chunk_seconds_sum{${labels}} 0.12`,
    );
  });

  it('counts budget refusals and backend errors, every series there from the start', () => {
    const m = metrics();
    expect(m.registry.render()).toContain('\ntoolkit_llm_budget_refusals_total 0\n');
    m.recordFailure({ kind: 'budget-refusal' });
    m.recordFailure({ kind: 'backend-error', backend: 'memory' });
    m.recordFailure({ kind: 'backend-error', backend: 'memory' });
    const text = m.registry.render();
    expect(text).toContain('\ntoolkit_llm_budget_refusals_total 1\n');
    expect(text).toContain('toolkit_backend_errors_total{backend="memory"} 2');
    expect(text).toContain('toolkit_backend_errors_total{backend="cache"} 0');
    expect(text).toContain('toolkit_backend_errors_total{backend="stream_log"} 0');
  });

  it('reads the stream gauges at each scrape', () => {
    const text = metrics().registry.render();
    expect(text).toContain('\ntoolkit_sse_streams_open 2\n');
    expect(text).toContain('\ntoolkit_resumable_streams_running 1\n');
  });
});
