/** UAX #29 `Extend` and `Format`: the sentence rules see through them to the character before. */
const EXTEND_OR_FORMAT = /^[\p{Grapheme_Extend}\p{Mc}\p{Cf}]$/u;
const LETTER = /^\p{L}$/u;
const SPACE = /^\s$/u;
/** Marks looked through before a cut is given up (real text has a few per letter at most). */
const MAX_MARKS = 32;

/**
 * Whether a text can be cut at `offset` and each side segmented into sentences on its own with
 * the same result (Unicode UAX #29): a letter (and its marks) ends the left side and a letter or
 * a space starts the right one. No sentence rule then looks across the cut — their left contexts
 * are runs of terminators, closing punctuation and spaces, their look-ahead stops at a letter —
 * and no sentence starts there.
 *
 * @example
 * isSafeCut('Hello world. Next', 5); // true: "Hello| world"
 * isSafeCut('Hello world. Next', 12); // false: "world.| Next"
 */
export function isSafeCut(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length || isLowSurrogate(text.charCodeAt(offset))) return false;
  const next = String.fromCodePoint(text.codePointAt(offset) ?? 0);
  if (EXTEND_OR_FORMAT.test(next) || !(LETTER.test(next) || SPACE.test(next))) return false;
  let end = offset;
  for (let marks = 0; end > 0 && marks <= MAX_MARKS; marks += 1) {
    const previous = characterBefore(text, end);
    if (!EXTEND_OR_FORMAT.test(previous)) return LETTER.test(previous);
    end -= previous.length;
  }
  return false;
}

/** Whether `code` is the second half of a surrogate pair (a cut before it splits a character). */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function characterBefore(text: string, end: number): string {
  const start = end >= 2 && isLowSurrogate(text.charCodeAt(end - 1)) ? end - 2 : end - 1;
  return String.fromCodePoint(text.codePointAt(start) ?? 0);
}
