import { describe, expect, it } from '@jest/globals';
import { isWhitespace } from './whitespace.js';

describe('isWhitespace', () => {
  it('agrees with \\s on every UTF-16 code unit', () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      if (isWhitespace(code) !== /\s/.test(String.fromCharCode(code))) differing.push(code);
    }
    expect(differing).toEqual([]);
  });
});
