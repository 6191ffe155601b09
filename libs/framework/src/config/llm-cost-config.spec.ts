import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.loader.js';

const dirs: string[] = [];
function project(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolkit-cost-config-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'toolkit.yaml'), yaml);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('llm.prices and llm.budget', () => {
  it('default to no overrides and no limit', () => {
    const { llm } = loadConfig({ cwd: project(''), env: {} });
    expect(llm.prices).toEqual({});
    expect(llm.budget).toEqual({ per_user_usd_per_day: null });
  });

  it('read toolkit.yaml, then TOOLKIT_LLM_PRICES / TOOLKIT_LLM_BUDGET as JSON', () => {
    const cwd = project(
      'llm:\n  prices:\n    my-model: { input: 1, output: 2 }\n  budget:\n    per_user_usd_per_day: 0.5\n',
    );
    expect(loadConfig({ cwd, env: {} }).llm).toMatchObject({
      prices: { 'my-model': { input: 1, output: 2 } },
      budget: { per_user_usd_per_day: 0.5 },
    });
    const env = { TOOLKIT_LLM_BUDGET: '{"per_user_usd_per_day": 3}' };
    expect(loadConfig({ cwd, env }).llm.budget).toEqual({ per_user_usd_per_day: 3 });
  });

  it('keeps a model named "__proto__" as a price like any other, not as a prototype', () => {
    const env = { TOOLKIT_LLM_PRICES: '{"__proto__": {"input": 1, "output": 2}}' };
    const { prices } = loadConfig({ cwd: project(''), env }).llm;
    expect(Object.hasOwn(prices, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(prices)).toBe(Object.prototype);
  });

  it.each([
    [
      'llm:\n  prices:\n    gpt-4o: { input: cheap, output: 1 }\n',
      {},
      'Invalid configuration: llm.prices.gpt-4o.input must be a non-negative number of USD per 1M tokens (got "cheap") in toolkit.yaml',
    ],
    [
      'llm:\n  prices: 5\n',
      {},
      'Invalid configuration: llm.prices must be a mapping of model names to { input, output } (got 5) in toolkit.yaml',
    ],
    [
      'llm:\n  budget:\n    per_user_usd_per_day: "ten"\n',
      {},
      'Invalid configuration: llm.budget.per_user_usd_per_day must be a non-negative number of USD (got "ten") in toolkit.yaml',
    ],
    [
      'llm:\n  budget:\n    per_day: 1\n',
      {},
      'Invalid configuration: llm.budget.per_day is not a known key (known: per_user_usd_per_day) in toolkit.yaml',
    ],
    [
      '',
      { TOOLKIT_LLM_BUDGET: 'ten' },
      'Invalid configuration: llm.budget must be a JSON object (got "ten") in the environment (TOOLKIT_LLM_BUDGET)',
    ],
  ])('refuses bad types at start-up naming key and source (%#)', (yaml, env, message) => {
    expect(() => loadConfig({ cwd: project(yaml), env })).toThrow(message);
  });
});
