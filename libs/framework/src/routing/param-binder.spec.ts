import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '../http/http.errors.js';
import { ValidationError } from '../../../providers/src/errors/validation.error.js';
import { bindParams, mergeInputs } from './param-binder.js';
import { normalizeParams } from './param-spec.js';

const params = normalizeParams({
  prompt: { type: 'string', maxLength: 10 },
  max_tokens: { type: 'integer', min: 1, max: 4096, default: 256 },
  temperature: { type: 'number', min: 0, max: 2, required: false },
  tags: { type: 'array', required: false, maxLength: 2 },
});

function problems(run: () => unknown): unknown[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return [...error.details];
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('bindParams', () => {
  it('applies defaults and leaves optional parameters out', () => {
    expect(
      bindParams(params, { method: 'POST', path: {}, query: {}, body: { prompt: 'hi' } }),
    ).toEqual({
      prompt: 'hi',
      max_tokens: 256,
    });
  });

  it('reports every constraint broken, in declaration order', () => {
    const body = {
      prompt: 'far too long a prompt',
      max_tokens: 0,
      temperature: 3,
      tags: ['a', 'b', 'c'],
    };
    expect(
      problems(() => bindParams(params, { method: 'POST', path: {}, query: {}, body })),
    ).toEqual([
      { param: 'prompt', problem: 'must be at most 10 characters long (got 21)' },
      { param: 'max_tokens', problem: 'must be at least 1 (got 0)' },
      { param: 'temperature', problem: 'must be at most 2 (got 3)' },
      { param: 'tags', problem: 'must be at most 2 items long (got 3)' },
    ]);
  });

  it('treats null as absent and converts repeated query keys to arrays', () => {
    const bound = bindParams(params, {
      method: 'GET',
      path: {},
      query: { prompt: 'q', tags: ['x', 'y'], temperature: '0.5' },
      body: undefined,
    });
    expect(bound).toEqual({ prompt: 'q', max_tokens: 256, temperature: 0.5, tags: ['x', 'y'] });
    expect(
      problems(() =>
        bindParams(params, { method: 'POST', path: {}, query: {}, body: { prompt: null } }),
      ),
    ).toEqual([{ param: 'prompt', problem: 'is required' }]);
  });

  it('refuses a body that is not an object when parameters come from it', () => {
    expect(() => bindParams(params, { method: 'POST', path: {}, query: {}, body: 'text' })).toThrow(
      BadRequestError,
    );
  });

  it('lets path parameters win over body and query when merging undeclared inputs', () => {
    expect(
      mergeInputs({
        method: 'POST',
        path: { id: '1' },
        query: { id: 'q', a: '1' },
        body: { id: 'b', b: 2 },
      }),
    ).toEqual({
      id: '1',
      a: '1',
      b: 2,
    });
  });
});
