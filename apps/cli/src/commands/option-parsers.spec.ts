import { describe, expect, it } from '@jest/globals';
import { InvalidArgumentError } from 'commander';
import { parseConcurrency, parsePort, parseWord } from './option-parsers.js';

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

describe('parseConcurrency', () => {
  it('takes 1 to 256', () => {
    expect(parseConcurrency('1')).toBe(1);
    expect(parseConcurrency('256')).toBe(256);
  });

  it.each(['0', '257', '2.5', 'four', ''])('refuses %s', (value) => {
    expect(() => parseConcurrency(value)).toThrow(InvalidArgumentError);
  });
});
