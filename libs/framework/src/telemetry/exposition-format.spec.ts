import { describe, expect, it } from '@jest/globals';
import { escapeHelp, escapeLabelValue, formatLabels, formatValue } from './exposition-format.js';

describe('the Prometheus text format', () => {
  it('escapes backslashes, double quotes and line feeds in label values', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });

  it('escapes backslashes and line feeds in HELP, not quotes', () => {
    expect(escapeHelp('say "hi"\\\n')).toBe('say "hi"\\\\\\n');
  });

  it('writes infinities and NaN as the format spells them', () => {
    expect([Infinity, -Infinity, NaN, 0.25, 3].map(formatValue)).toEqual([
      '+Inf',
      '-Inf',
      'NaN',
      '0.25',
      '3',
    ]);
  });

  it('leaves unset label values out, and nothing for no labels', () => {
    expect(formatLabels(['a', 'b'], ['1', undefined], ['le', '+Inf'])).toBe('{a="1",le="+Inf"}');
    expect(formatLabels(['a'], [undefined])).toBe('');
  });
});
