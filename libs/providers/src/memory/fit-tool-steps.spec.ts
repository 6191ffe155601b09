import { describe, expect, it } from '@jest/globals';
import { fitToolSteps } from './fit-tool-steps.js';
import type { ToolStep } from './memory-message.js';

describe('fitToolSteps', () => {
  it('returns steps that fit unchanged, as copies', () => {
    const steps: ToolStep[] = [{ id: 'c1', name: 'calc', args: { x: 1 }, result: 2, step: 1 }];
    const fitted = fitToolSteps(steps);
    expect(fitted).toEqual(steps);
    expect(fitted[0]).not.toBe(steps[0]);
  });

  it('cuts the largest values first until the list fits, leaving the input alone', () => {
    const big = { rows: 'r'.repeat(5000) };
    const steps: ToolStep[] = [
      { id: 'a', name: 'fetch', args: { url: 'u' }, result: big },
      { id: 'b', name: 'fetch', args: 'x'.repeat(3000), error: 'e'.repeat(2000) },
      { id: 'c', name: 'calc', args: {}, result: 7 },
    ];
    const fitted = fitToolSteps(steps, 4000);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(4000);
    expect(fitted[0].result).toBe(`{"rows":"${'r'.repeat(247)}… [truncated: 5011 characters]`);
    // The next largest (3002 characters of JSON) went too; the rest fit as they were.
    expect(fitted[1].args).toBe(`"${'x'.repeat(255)}… [truncated: 3002 characters]`);
    expect(fitted[1].error).toBe('e'.repeat(2000));
    expect(fitted[2]).toEqual(steps[2]);
    expect(steps[0].result).toBe(big);
  });

  it('never keeps half of a surrogate pair in a preview', () => {
    const text = `${'a'.repeat(254)}😀${'b'.repeat(100)}`;
    const [step] = fitToolSteps([{ id: 'a', name: 't', args: {}, result: text }], 200);
    expect(step.result).toBe(`"${'a'.repeat(254)}… [truncated: ${text.length + 2} characters]`);
  });

  it('gives up (for the store to refuse) when cutting every value is not enough', () => {
    const steps: ToolStep[] = Array.from({ length: 10 }, (_, n) => ({
      id: `call_${n}`.padEnd(200, '_'),
      name: 'tool',
      args: {},
    }));
    expect(fitToolSteps(steps, 1000)).toEqual(steps);
  });
});
