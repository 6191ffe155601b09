import { describe, expect, it } from '@jest/globals';
import type { UsageReport } from '../../../providers/src/llm/chat-model.interface.js';
import {
  currentRequest,
  currentRequestId,
  recordRequestUsage,
  runInRequest,
  type RequestContext,
} from './request-context.js';

const report = (over: Partial<UsageReport>): UsageReport => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  finishReason: 'stop',
  steps: 1,
  inputTokens: 10,
  outputTokens: 5,
  totalTokens: 15,
  ...over,
});

describe('request context', () => {
  it('is the request being served, through awaits, and nothing outside', async () => {
    const context: RequestContext = { id: 'abc' };
    expect(currentRequestId()).toBeUndefined();
    await runInRequest(context, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      expect(currentRequestId()).toBe('abc');
    });
    expect(currentRequest()).toBeUndefined();
  });

  it('sums the usage of the calls of a request, the cost only when every price is known', () => {
    const priced: RequestContext = { id: 'a' };
    runInRequest(priced, () => {
      recordRequestUsage(report({ costUsd: 0.001 }));
      recordRequestUsage(report({ model: 'gpt-4o', costUsd: 0.002, inputTokens: 1 }));
    });
    expect(priced.usage).toEqual({
      model: 'gpt-4o',
      provider: 'openai',
      calls: 2,
      inputTokens: 11,
      outputTokens: 10,
      costUsd: 0.003,
    });
    const unpriced: RequestContext = { id: 'b' };
    runInRequest(unpriced, () => {
      recordRequestUsage(report({}));
      recordRequestUsage(report({ costUsd: 0.002 }));
    });
    expect(unpriced.usage?.costUsd).toBeUndefined();
    expect(unpriced.usage?.calls).toBe(2);
  });

  it('ignores usage reported outside a request', () => {
    expect(() => recordRequestUsage(report({}))).not.toThrow();
  });
});
