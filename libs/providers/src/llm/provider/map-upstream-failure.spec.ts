import { describe, expect, it } from '@jest/globals';
import {
  LlmAbortedError,
  ProviderAuthError,
  ProviderError,
  ProviderRateLimitError,
  ProviderTimeoutError,
} from '../llm.errors.js';
import { mapUpstreamFailure, scrub } from './map-upstream-failure.js';

const ctx = {
  provider: 'OpenAI',
  model: 'gpt-4o-mini',
  keyVar: 'OPENAI_API_KEY',
  baseURL: 'http://api',
  timeoutMs: 1000,
  secret: 'sk-live-abcdefghijkl',
};

describe('mapUpstreamFailure: SPEC 3.2 statuses', () => {
  it.each([
    [401, ProviderAuthError, 502, false],
    [403, ProviderAuthError, 502, false],
    [429, ProviderRateLimitError, 429, true],
    [408, ProviderTimeoutError, 504, true],
    [504, ProviderTimeoutError, 504, true],
    [500, ProviderError, 502, true],
    [529, ProviderError, 502, true],
    [400, ProviderError, 502, false],
    [404, ProviderError, 502, false],
  ] as const)('HTTP %i → %p (%i, retryable %p)', (status, type, statusCode, retryable) => {
    const error = mapUpstreamFailure({ kind: 'http', status }, ctx);
    expect(error).toBeInstanceOf(type);
    expect(error.statusCode).toBe(statusCode);
    expect(error.isRetryable).toBe(retryable);
  });

  it('passes Retry-After on, rounded up to whole seconds', () => {
    const error = mapUpstreamFailure(
      { kind: 'http', status: 429, headers: new Headers({ 'retry-after-ms': '1200' }) },
      ctx,
    );
    expect(error.headers).toEqual({ 'Retry-After': '2' });
    expect(mapUpstreamFailure({ kind: 'http', status: 429 }, ctx).headers).toEqual({});
  });

  it('maps timeouts, aborts, unreachable hosts and broken streams', () => {
    expect(mapUpstreamFailure({ kind: 'timeout' }, ctx)).toMatchObject({ statusCode: 504 });
    expect(mapUpstreamFailure({ kind: 'abort' }, ctx)).toBeInstanceOf(LlmAbortedError);
    expect(mapUpstreamFailure({ kind: 'connection' }, ctx).message).toBe(
      'Could not reach OpenAI at http://api',
    );
    expect(mapUpstreamFailure({ kind: 'broken-stream', message: 'terminated' }, ctx)).toMatchObject(
      {
        statusCode: 502,
        message: 'OpenAI stream broke off: terminated',
      },
    );
  });

  it('names the model on 404 and the key variable on 401', () => {
    expect(
      mapUpstreamFailure({ kind: 'http', status: 404, message: 'no such model' }, ctx).message,
    ).toBe('OpenAI does not know model "gpt-4o-mini" (HTTP 404): no such model');
    expect(mapUpstreamFailure({ kind: 'http', status: 401 }, ctx).message).toContain(
      'OPENAI_API_KEY',
    );
  });
});

describe('scrub', () => {
  it('removes the key and key-shaped strings, and shortens', () => {
    expect(scrub('bad key sk-live-abcdefghijkl here', ctx.secret)).toBe('bad key *** here');
    expect(scrub('other key sk-proj-ZZZZZZZZZZZZ')).toBe('other key ***');
    expect(scrub('x'.repeat(400))).toHaveLength(300);
    expect(scrub(undefined)).toBe('');
  });
});
