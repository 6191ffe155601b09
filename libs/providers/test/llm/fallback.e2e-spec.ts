import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import { MissingApiKeyError, ProviderAuthError, ProviderError } from '../../src/llm/llm.errors.js';
import type { LlmOptions } from '../../src/llm/llm-options.interface.js';
import type { UsageReport } from '../../src/llm/chat-model.interface.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { collect, rejection, within } from './llm-test.helpers.js';

describe("fallbacks: new LLM(['gpt-4o-mini', 'claude-3-5-haiku-latest'])", () => {
  let server: FakeLlmServer;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const make = (options: LlmOptions = {}): LLM =>
    new LLM(['gpt-4o-mini', 'claude-3-5-haiku-latest'], {
      env: {
        OPENAI_API_KEY: 'sk-openai-test',
        OPENAI_BASE_URL: server.openaiBaseURL,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      },
      maxRetries: 0,
      ...options,
    });
  const apis = () => server.requests.map((r) => r.api);
  const openaiFails = (step: Parameters<FakeLlmServer['script']>[0]) =>
    server.script(
      { ...step, when: { api: 'openai' } },
      { kind: 'reply', text: 'from claude', when: { api: 'anthropic' } },
    );

  it('exposes its models and the first provider', () => {
    const llm = make();
    expect(llm.model).toBe('gpt-4o-mini');
    expect(llm.models).toEqual(['gpt-4o-mini', 'claude-3-5-haiku-latest']);
    expect(llm.provider).toBe('openai');
  });

  it.each([
    [
      'a 429 with a long Retry-After',
      { kind: 'error', status: 429, headers: { 'retry-after': '60' } },
    ],
    ['a 500', { kind: 'error', status: 500 }],
    ['a 529 overload', { kind: 'error', status: 529 }],
  ] as const)('moves to the next model on %s', async (_label, step) => {
    openaiFails(step);
    const usages: UsageReport[] = [];
    expect(await make().chat('hi', { onUsage: (u) => usages.push(u) })).toBe('from claude');
    expect(apis()).toEqual(['openai-chat', 'anthropic-messages']);
    expect(usages[0]).toMatchObject({ provider: 'anthropic', model: 'claude-3-5-haiku-latest' });
  });

  it('moves to the next model on a timeout', async () => {
    openaiFails({ kind: 'hang' });
    const answer = await within(make({ timeoutMs: 300 }).chat('hi'), 5_000, 'the fallback');
    expect(answer).toBe('from claude');
    expect(apis()).toEqual(['openai-chat', 'anthropic-messages']);
  });

  it('waits out a short Retry-After on the same model instead of falling over', async () => {
    server.script(
      { kind: 'error', status: 429, headers: { 'retry-after': '1' }, when: { api: 'openai' } },
      { kind: 'reply', text: 'from openai', when: { api: 'openai' } },
    );
    expect(await make({ maxRetries: 1, maxRetryAfterMs: 2_000 }).chat('hi')).toBe('from openai');
    expect(apis()).toEqual(['openai-chat', 'openai-chat']);
  });

  it.each([
    ['401', 401, ProviderAuthError],
    ['403', 403, ProviderAuthError],
    ['400', 400, ProviderError],
  ] as const)('never falls over on %s', async (_label, status, type) => {
    openaiFails({ kind: 'error', status });
    const error = await rejection(make().chat('hi'));
    expect(error).toBeInstanceOf(type);
    expect(apis()).toEqual(['openai-chat']);
  });

  it('never falls over for a missing key', async () => {
    const llm = new LLM(['gpt-4o-mini', 'claude-3-5-haiku-latest'], {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    });
    expect(await rejection(llm.chat('hi'))).toBeInstanceOf(MissingApiKeyError);
    expect(server.requests).toHaveLength(0);
  });

  it('a stream falls over before its first token', async () => {
    server.script(
      { kind: 'error', status: 503, when: { api: 'openai' } },
      { kind: 'reply', chunks: ['from', ' claude'], when: { api: 'anthropic' } },
    );
    const stream = await make().chat('hi', { stream: true });
    expect(await collect(stream)).toEqual(['from', ' claude']);
    expect(apis()).toEqual(['openai-chat', 'anthropic-messages']);
  });

  it('a stream that fails after its first token errors, never switching silently', async () => {
    server.script({ kind: 'drop-after', chunks: ['partial '], when: { api: 'openai' } });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of await make().chat('hi', { stream: true })) seen.push(chunk);
      })(),
    );
    expect(seen).toEqual(['partial ']);
    expect(error).toMatchObject({ statusCode: 502 });
    expect(apis()).toEqual(['openai-chat']);
  });

  it('a stream that goes silent after its first token times out, never switching', async () => {
    server.script({ kind: 'hang-after', chunks: ['partial '], when: { api: 'openai' } });
    const stream = await make({ timeoutMs: 300 }).chat('hi', { stream: true });
    const error = await within(rejection(collect(stream)), 5_000, 'the timeout');
    expect(error).toMatchObject({ statusCode: 504 });
    expect(apis()).toEqual(['openai-chat']);
  });

  it('when every model fails, the last failure is reported', async () => {
    server.script(
      { kind: 'error', status: 500, when: { api: 'openai' } },
      { kind: 'error', status: 429, headers: { 'retry-after': '90' }, when: { api: 'anthropic' } },
    );
    const error = await rejection(make().chat('hi'));
    expect(error).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '90' } });
    expect(apis()).toEqual(['openai-chat', 'anthropic-messages']);
  });

  it('an aborted call does not fall over', async () => {
    openaiFails({ kind: 'hang' });
    const controller = new AbortController();
    const pending = make().chat('hi', { signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ statusCode: 499 });
    expect(apis()).toEqual(['openai-chat']);
  });

  it('fallback entries can carry their own key and base URL', async () => {
    const llm = new LLM(
      [
        { model: 'gpt-4o-mini', apiKey: 'sk-one', baseURL: server.openaiBaseURL },
        { model: 'ollama/llama3', baseURL: `${server.url}/ollama/v1` },
      ],
      { maxRetries: 0, env: {} },
    );
    server.script({ kind: 'error', status: 502, when: { api: 'openai', pathPrefix: '/v1' } });
    expect(await llm.chat('hi')).toBe('Hello from the fake server.');
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1/chat/completions',
      '/ollama/v1/chat/completions',
    ]);
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-one');
  });
});
