import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LLM } from '../../src/llm/llm.js';
import {
  LlmAbortedError,
  MissingApiKeyError,
  ProviderAuthError,
  ProviderError,
  ProviderRateLimitError,
  ProviderTimeoutError,
} from '../../src/llm/llm.errors.js';
import type { LlmOptions } from '../../src/llm/llm-options.interface.js';
import { ToolkitError } from '../../src/errors/toolkit.error.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';
import { rejection, within } from './llm-test.helpers.js';

const OPENAI_KEY = 'sk-secret-openai-0123456789';
const ANTHROPIC_KEY = 'sk-ant-secret-0123456789';

describe.each([
  { vendor: 'openai', model: 'gpt-4o-mini', keyVar: 'OPENAI_API_KEY' },
  { vendor: 'anthropic', model: 'claude-3-5-haiku-latest', keyVar: 'ANTHROPIC_API_KEY' },
])('$vendor: retries, error mapping, timeouts and aborts', ({ vendor, model, keyVar }) => {
  let server: FakeLlmServer;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const make = (options: LlmOptions = {}): LLM =>
    new LLM(model, {
      env: {
        OPENAI_API_KEY: OPENAI_KEY,
        OPENAI_BASE_URL: server.openaiBaseURL,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: server.anthropicBaseURL,
      },
      ...options,
    });

  it('retries a 500 with the SDK backoff, then succeeds', async () => {
    server.script({ kind: 'error', status: 500 }, { kind: 'reply', text: 'recovered' });
    expect(await make({ maxRetries: 2 }).chat('hi')).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries on a persistent 5xx: 502, retryable', async () => {
    server.script({ kind: 'error', status: 503 }, { kind: 'error', status: 500 });
    const error = await rejection(make({ maxRetries: 1 }).chat('hi'));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 502, upstreamStatus: 500, isRetryable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('maps 429 with a long Retry-After to 429 + Retry-After at once (no minute-long SDK wait)', async () => {
    server.script({ kind: 'error', status: 429, headers: { 'retry-after': '30' } });
    const error = await within(rejection(make({ maxRetries: 2 }).chat('hi')), 10_000, 'the 429');
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    const limited = error as ProviderRateLimitError;
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toEqual({ 'Retry-After': '30' });
    expect(limited.retryAfterSeconds).toBe(30);
    expect(server.requests).toHaveLength(1);
  });

  it('waits out a short Retry-After and retries the same model', async () => {
    server.script(
      { kind: 'error', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'reply', text: 'ok' },
    );
    expect(await make({ maxRetries: 1 }).chat('hi')).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('maps 401 to 502 naming the variable, never the key, without retrying', async () => {
    server.script({
      kind: 'error',
      status: 401,
      message: `Incorrect API key provided: ${OPENAI_KEY}${ANTHROPIC_KEY}`,
    });
    const error = await rejection(make({ maxRetries: 2 }).chat('hi'));
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect((error as ToolkitError).statusCode).toBe(502);
    expect(error.message).toContain(keyVar);
    expect(JSON.stringify((error as ToolkitError).toJSON())).not.toMatch(/secret/);
    expect(error.message).not.toMatch(/secret/);
    expect(server.requests).toHaveLength(1);
  });

  it('scrubs the key out of upstream messages it does pass on', async () => {
    server.script({
      kind: 'error',
      status: 400,
      message: `bad request for key ${OPENAI_KEY} ${ANTHROPIC_KEY}`,
    });
    const error = await rejection(make().chat('hi'));
    expect(error).toMatchObject({ statusCode: 502, upstreamStatus: 400, isRetryable: false });
    expect(error.message).toMatch(/bad request for key \*\*\*/);
    expect(error.message).not.toMatch(/secret/);
  });

  it('maps a hung upstream to 504 within the timeout', async () => {
    server.script({ kind: 'hang' });
    const error = await within(
      rejection(make({ timeoutMs: 300, maxRetries: 0 }).chat('hi')),
      5_000,
      'the 504',
    );
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ToolkitError).statusCode).toBe(504);
  });

  it('maps a hung streamed call to 504 too, and retries timeouts', async () => {
    server.script({ kind: 'hang' }, { kind: 'hang' });
    const llm = make({ timeoutMs: 300, maxRetries: 1 });
    const error = await within(rejection(llm.chat('hi', { stream: true })), 5_000, 'the 504');
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(server.requests).toHaveLength(2);
  });

  it('times out a stream that goes silent after its first chunk, and closes the upstream', async () => {
    server.script({ kind: 'hang-after', chunks: ['first'] });
    const stream = await make({ timeoutMs: 300 }).chat('hi', { stream: true });
    const seen: string[] = [];
    const error = await within(
      rejection(
        (async () => {
          for await (const chunk of stream) seen.push(chunk);
        })(),
      ),
      5_000,
      'the idle timeout',
    );
    expect(seen).toEqual(['first']);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    await within(server.requests[0].ended, 5_000, 'the upstream close');
    expect(server.requests[0].clientClosed).toBe(true);
  });

  it('aborting the signal aborts the upstream HTTP request mid-stream', async () => {
    server.script({ kind: 'hang-after', chunks: ['tok'] });
    const controller = new AbortController();
    const stream = await make().chat('hi', { stream: true, signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 'tok' });
    const pending = iterator.next();
    controller.abort();
    const error = await within(rejection(pending), 5_000, 'the abort');
    expect(error).toBeInstanceOf(LlmAbortedError);
    await within(server.requests[0].ended, 5_000, 'the upstream close');
    expect(server.requests[0].clientClosed).toBe(true);
  });

  it('a consumer that stops reading closes the upstream request', async () => {
    server.script({ kind: 'hang-after', chunks: ['a', 'b'] });
    for await (const chunk of await make().chat('hi', { stream: true })) {
      expect(chunk).toBe('a');
      break;
    }
    await within(server.requests[0].ended, 5_000, 'the upstream close');
    expect(server.requests[0].clientClosed).toBe(true);
  });

  it('an aborted non-streamed call rejects with LlmAbortedError', async () => {
    server.script({ kind: 'hang' });
    const controller = new AbortController();
    const pending = make().chat('hi', { signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    expect(await within(rejection(pending), 5_000, 'the abort')).toBeInstanceOf(LlmAbortedError);
    await within(server.requests[0].ended, 5_000, 'the upstream close');
    expect(server.requests[0].clientClosed).toBe(true);
  });

  it('a stream broken mid-way surfaces as a 502 after the chunks already sent', async () => {
    server.script({ kind: 'drop-after', chunks: ['one ', 'two '] });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of await make().chat('hi', { stream: true })) seen.push(chunk);
      })(),
    );
    expect(seen).toEqual(['one ', 'two ']);
    expect(error).toMatchObject({ statusCode: 502 });
  });

  it('no key (or a placeholder) is a 503 naming the variable, and nothing is sent', async () => {
    for (const value of [undefined, '<API_KEY>', 'your-api-key-here', '']) {
      const llm = new LLM(model, {
        env: { [keyVar]: value, OPENAI_BASE_URL: server.openaiBaseURL },
      });
      const error = await rejection(llm.chat('hi'));
      expect(error).toBeInstanceOf(MissingApiKeyError);
      expect(error).toMatchObject({ statusCode: 503, keyVar });
      expect(error.message).toContain(keyVar);
      const streamError = await rejection(llm.chat('hi', { stream: true }));
      expect(streamError).toBeInstanceOf(MissingApiKeyError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('an unreachable host is a retryable 502', async () => {
    const closed = await startFakeLlmServer();
    await closed.close();
    const error = await rejection(
      new LLM(model, {
        apiKey: 'sk-test-key',
        baseURL: vendor === 'openai' ? closed.openaiBaseURL : closed.anthropicBaseURL,
        maxRetries: 0,
      }).chat('hi'),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 502, isRetryable: true });
    expect(error.message).toMatch(/Could not reach/);
  });
});
