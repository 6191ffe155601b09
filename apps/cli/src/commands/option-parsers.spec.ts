import { describe, expect, it } from '@jest/globals';
import { parsePort, parseWord } from './option-parsers.js';

describe('option parsers', () => {
  it.each([
    ['8000', 8000],
    ['1', 1],
    ['65535', 65535],
  ])('parsePort(%s) → %d', (value, port) => {
    expect(parsePort(value)).toBe(port);
  });

  it.each(['abc', '0', '65536', '80.5', '-1', '', '1e3', '0x50'])(
    'parsePort(%s) is a usage error',
    (value) => {
      expect(() => parsePort(value)).toThrow(
        expect.objectContaining({ code: 'commander.invalidArgument' }),
      );
    },
  );

  it('parseWord trims and refuses blanks', () => {
    expect(parseWord(' 0.0.0.0 ')).toBe('0.0.0.0');
    expect(() => parseWord('  ')).toThrow(
      expect.objectContaining({ code: 'commander.invalidArgument' }),
    );
    expect(() => parseWord('a b')).toThrow(
      expect.objectContaining({ code: 'commander.invalidArgument' }),
    );
  });
});
