import { describe, expect, it } from '@jest/globals';
import { mayEndInside } from './terminator-scan.js';

const whole = (text: string) => mayEndInside(text, 0, text.length);

describe('mayEndInside', () => {
  it.each(['', 'no terminator at all', 'Item a.\n\nItem b!\r\n', 'Wait... \t\nOK?!', 'a.\u2029b.'])(
    'sees no sentence end but at separators in %j',
    (text) => expect(whole(text)).toBe(false),
  );

  it.each(['a. b', 'a.b', 'a.) b\n', 'a. "b"\n', 'a.\u0301\n', '中。文', 'a\u{1144B}b'])(
    'sees a possible sentence end in %j',
    (text) => expect(whole(text)).toBe(true),
  );

  it('looks only between from and to', () => {
    expect(mayEndInside('a. b', 0, 3)).toBe(false);
    expect(mayEndInside('a. b', 1, 4)).toBe(true);
  });
});
