import { describe, expect, it } from '@jest/globals';
import type { MemoryMessage, MemoryRole } from './memory-message.js';
import { estimateMessageTokens, estimateTokens, fitTokenBudget } from './token-budget.js';

const at = '2025-01-01T00:00:00.000Z';
const msg = (role: MemoryRole, content: string): MemoryMessage => ({
  role,
  content,
  timestamp: at,
});
/** A message costing exactly `tokens` (4 overhead + 4 ASCII chars per token). */
const sized = (role: MemoryRole, tokens: number, tag: string): MemoryMessage =>
  msg(role, tag.padEnd((tokens - 4) * 4, '.'));

describe('estimateTokens', () => {
  it('counts about four ASCII characters per token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('counts one token per non-ASCII code point (emoji count once, not per UTF-16 unit)', () => {
    expect(estimateTokens('日本語')).toBe(3);
    expect(estimateTokens('😀😀')).toBe(2);
    expect(estimateTokens('ab😀')).toBe(2);
  });

  it('adds a fixed per-message overhead', () => {
    expect(estimateMessageTokens({ content: 'abcd' })).toBe(5);
  });
});

describe('fitTokenBudget', () => {
  it('keeps the newest whole turns that fit, oldest first', () => {
    const history = [
      sized('user', 10, 'u1'),
      sized('assistant', 10, 'a1'),
      sized('user', 10, 'u2'),
      sized('assistant', 10, 'a2'),
      sized('user', 10, 'u3'),
      sized('assistant', 10, 'a3'),
    ];
    expect(estimateMessageTokens(history[0])).toBe(10);
    const kept = fitTokenBudget(history, 45);
    expect(kept.map((m) => m.content.slice(0, 2))).toEqual(['u2', 'a2', 'u3', 'a3']);
  });

  it('never splits a turn: a turn that does not fit whole is dropped with everything older', () => {
    const history = [
      sized('user', 10, 'u1'),
      sized('user', 10, 'u2'),
      sized('assistant', 30, 'a2'),
      sized('user', 10, 'u3'),
    ];
    expect(fitTokenBudget(history, 39).map((m) => m.content.slice(0, 2))).toEqual(['u3']);
    expect(fitTokenBudget(history, 50).map((m) => m.content.slice(0, 2))).toEqual([
      'u2',
      'a2',
      'u3',
    ]);
  });

  it('always keeps system messages in place, even when they alone exceed the budget', () => {
    const history = [
      sized('system', 50, 's'),
      sized('user', 10, 'u1'),
      sized('assistant', 10, 'a1'),
      sized('user', 10, 'u2'),
    ];
    expect(fitTokenBudget(history, 20).map((m) => m.content.slice(0, 2))).toEqual(['s.']);
    expect(fitTokenBudget(history, 60).map((m) => m.content.slice(0, 2))).toEqual(['s.', 'u2']);
    expect(fitTokenBudget(history, 80)).toEqual(history);
  });

  it('treats assistant messages before any user message as one leading turn', () => {
    const history = [sized('assistant', 10, 'a0'), sized('user', 10, 'u1')];
    expect(fitTokenBudget(history, 20)).toEqual(history);
    expect(fitTokenBudget(history, 19).map((m) => m.content.slice(0, 2))).toEqual(['u1']);
  });

  it('returns an empty list when nothing fits and there is no system message', () => {
    expect(fitTokenBudget([sized('user', 10, 'u1')], 9)).toEqual([]);
  });
});
