import { describe, expect, it } from '@jest/globals';
import { stem, tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('lower-cases, folds accents, drops stop words and stems', () => {
    expect(tokenize('The Booking policies of Zürich, café!')).toEqual([
      'book',
      'policy',
      'zurich',
      'cafe',
    ]);
  });

  it('keeps numbers and words of any script', () => {
    expect(tokenize('Error E5 at 02:00 — Москва 東京')).toEqual([
      'error',
      'e5',
      '02',
      '00',
      'москва',
      '東京',
    ]);
  });

  it.each([
    ['require', 'requir'],
    ['requires', 'requir'],
    ['required', 'requir'],
    ['requiring', 'requir'],
    ['stopped', 'stop'],
    ['falling', 'fall'],
    ['days', 'day'],
    ['class', 'class'],
    ['status', 'status'],
    ['quickly', 'quick'],
    ['bus', 'bus'],
    ['e5', 'e5'],
  ])('stems %s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });
});
