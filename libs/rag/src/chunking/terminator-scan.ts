/** UAX #29 `STerm` and `ATerm`: a sentence ends after one of them, or after a separator. */
const TERMINATOR = /^[\p{Sentence_Terminal}.\u2024\ufe52\uff0e]$/u;
const SEPARATOR = /^[\n\r\u0085\u2028\u2029]$/;
const SPACE_OR_TAB = /^[ \t]$/;

/**
 * Whether a sentence may end in `text` between `from` and `to` other than after a line or
 * paragraph separator, i.e. whether the segmenter must be asked. A sentence ends inside a
 * paragraph only after a terminator, once the terminators, closing marks and spaces that follow
 * it give way to something else; so when every terminator is followed by nothing but terminators,
 * spaces and tabs up to a separator or the end, none does (`"Item a.\n\n"` has no end but the
 * separators'). Errs only towards `true`.
 *
 * @example
 * mayEndInside('a.\n\nb!\n', 0, 7); // false
 * mayEndInside('a. b', 0, 4); // true
 */
export function mayEndInside(text: string, from: number, to: number): boolean {
  let afterTerminator = false;
  for (let i = from; i < to;) {
    const character = String.fromCodePoint(text.codePointAt(i) ?? 0);
    i += character.length;
    if (SEPARATOR.test(character)) afterTerminator = false;
    else if (TERMINATOR.test(character)) afterTerminator = true;
    else if (afterTerminator && !SPACE_OR_TAB.test(character)) return true;
  }
  return false;
}
