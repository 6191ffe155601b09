import { describe, expect, it } from '@jest/globals';
import { compileTypeScript } from './ts-compiler.js';
import { describeLoadFailure } from './load-failure.js';

describe('describeLoadFailure', () => {
  it('prints a syntax error once: the code frame, no native backtrace, no stack', async () => {
    let failure: unknown;
    try {
      await compileTypeScript('export const app = ;\n', '/project/app.ts');
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeDefined();
    const text = describeLoadFailure(failure);
    expect(text).toContain('export const app = ;');
    expect(text.match(/Expression expected/g)).toHaveLength(1);
    expect(text).not.toContain('Stack backtrace');
    expect(text).not.toMatch(/\n\s+at /);
  });

  it('keeps the JavaScript frames of a runtime error, without repeating its message', () => {
    const error = new TypeError('config is undefined');
    const text = describeLoadFailure(error);
    expect(text.startsWith('config is undefined\n    at ')).toBe(true);
    expect(text.match(/config is undefined/g)).toHaveLength(1);
    expect(describeLoadFailure('plain')).toBe('plain');
  });
});
