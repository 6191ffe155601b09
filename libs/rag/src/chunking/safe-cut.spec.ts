import { describe, expect, it } from '@jest/globals';
import { isSafeCut } from './safe-cut.js';

const at = (marked: string) => isSafeCut(marked.replace('|', ''), marked.indexOf('|'));

describe('isSafeCut', () => {
  it.each(['Hel|lo', 'Hello| world', '中|文', 'Cafe\u0301| au', 'a\u00ad|b', 'Ab|\u00a0c', '𝐀|b'])(
    'cuts after a letter before a letter or a space: %j',
    (marked) => expect(at(marked)).toBe(true),
  );

  it.each([
    ['after a terminator', 'Hello.| World'],
    ['after a space', 'Hello |world'],
    ['before a full stop', 'U|.S.'],
    ['before a combining mark', 'Cafe|\u0301'],
    ['between digits', '12|34'],
    ['after a closing quote', 'said”| Then'],
    ['at the start', '|abc'],
    ['at the end', 'abc|'],
  ])('does not cut %s', (_, marked) => expect(at(marked)).toBe(false));

  it('does not cut in the middle of a surrogate pair', () => {
    expect(isSafeCut('a𝐀b', 2)).toBe(false);
    expect(isSafeCut('a𝐀b', 3)).toBe(true);
  });
});
