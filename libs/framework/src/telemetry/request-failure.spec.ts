import { describe, expect, it } from '@jest/globals';
import { CacheUnavailableError } from '../../../providers/src/cache/cache-unavailable.error.js';
import { ServiceUnavailableError } from '../../../providers/src/errors/service-unavailable.error.js';
import { BudgetExceededError } from '../../../providers/src/llm/cost/budget-exceeded.error.js';
import { MemoryUnavailableError } from '../../../providers/src/memory/memory-unavailable.error.js';
import { runInRequest } from '../logging/request-context.js';
import { failureOf, reportFailure, type RequestFailure } from './request-failure.js';

describe('failureOf', () => {
  it('names budget refusals and the backend of backend errors', () => {
    expect(failureOf(new BudgetExceededError(2, 60))).toEqual({ kind: 'budget-refusal' });
    expect(failureOf(new MemoryUnavailableError('redis', 'at 127.0.0.1:1'))).toEqual({
      kind: 'backend-error',
      backend: 'memory',
    });
    expect(failureOf(new CacheUnavailableError('at 127.0.0.1:1'))).toEqual({
      kind: 'backend-error',
      backend: 'cache',
    });
    const log = new ServiceUnavailableError('Stream log unavailable: redis at 127.0.0.1:1');
    expect(failureOf(log)).toEqual({ kind: 'backend-error', backend: 'stream_log' });
  });

  it('ignores every other error', () => {
    expect(
      failureOf(new ServiceUnavailableError('The search index is rebuilding')),
    ).toBeUndefined();
    expect(failureOf(new Error('Stream log unavailable'))).toBeUndefined();
    expect(failureOf('nope')).toBeUndefined();
  });
});

describe('reportFailure', () => {
  it("tells the request's onFailure, each error once", () => {
    const told: RequestFailure[] = [];
    const error = new BudgetExceededError(2, 60);
    runInRequest({ id: 'r1', onFailure: (failure) => told.push(failure) }, () => {
      reportFailure(error);
      reportFailure(error);
      reportFailure(new Error('a bug'));
    });
    expect(told).toEqual([{ kind: 'budget-refusal' }]);
  });

  it('does nothing outside a request', () => {
    expect(() => reportFailure(new BudgetExceededError(2, 60))).not.toThrow();
  });
});
