import { describe, expect, it } from '@jest/globals';
import { formatLlmRequest, formatUsd } from './llm-request-line.js';

const request = {
  type: 'llm-request' as const,
  method: 'POST',
  route: '/chat/stream',
  status: 200,
  model: 'gpt-4o-mini',
  inputTokens: 12,
  outputTokens: 48,
};

describe('formatLlmRequest', () => {
  it('names the route, model, tokens, cost and time to first token', () => {
    expect(formatLlmRequest({ ...request, costUsd: 0.00003, timeToFirstTokenMs: 210.4 })).toBe(
      'POST /chat/stream  gpt-4o-mini  12→48 tokens  $0.00003  first token 210 ms',
    );
  });

  it('says when the cost is unknown, leaves out the first token of an unstreamed answer', () => {
    expect(formatLlmRequest(request)).toBe(
      'POST /chat/stream  gpt-4o-mini  12→48 tokens  cost unknown',
    );
  });

  it('adds a status other than 2xx, and names a request no route matched', () => {
    expect(formatLlmRequest({ ...request, route: null, status: 500, costUsd: 1.5 })).toBe(
      'POST (no route) 500  gpt-4o-mini  12→48 tokens  $1.50',
    );
  });
});

describe('formatUsd', () => {
  it.each([
    [0, '$0'],
    [0.00003, '$0.00003'],
    [0.0000314, '$0.000031'],
    [0.00123, '$0.0012'],
    [0.012, '$0.01'],
    [2, '$2.00'],
    [0.0000001, '<$0.000001'],
  ])('writes %p as %s', (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });
});
