import { isLowSurrogate, isSafeCut } from './safe-cut.js';
import { mayEndInside } from './terminator-scan.js';

/**
 * Longest text handed to the sentence segmenter at once, in UTF-16 code units. V8's
 * `Intl.Segmenter` spends time proportional to the length of its input on every sentence it
 * yields (and far more above 128 KiB), so it only ever sees windows of this size.
 */
export const SENTENCE_WINDOW = 2048;

/** Splits a text into sentences: yields the offset where each one starts (the first is 0). */
export type SentenceSegmenter = (text: string) => Iterable<{ index: number }>;

/** How {@link findSentenceStarts} segments (tests inject a smaller window or a spy). */
export interface SentenceStartsOptions {
  /** Longest text given to `segment` at once; at least 2. @default SENTENCE_WINDOW */
  window?: number;
  /** @default `Intl.Segmenter` with `granularity: 'sentence'` in the default locale */
  segment?: SentenceSegmenter;
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const segmentSentences: SentenceSegmenter = (text) => sentenceSegmenter.segment(text);

const [LF, CR, NEL, LS, PS] = [0x0a, 0x0d, 0x85, 0x2028, 0x2029];

/**
 * Offsets after 0 where a sentence starts (Unicode UAX #29), in time linear in the text's length.
 * The segmenter sees windows of at most `window` characters, cut where no sentence rule looks
 * across: after a line or paragraph separator (a sentence always starts there, whatever precedes
 * or follows it), else between two letters or a letter and a space (see {@link isSafeCut}). The
 * result is then the same as segmenting the whole text. Only where half a window holds no such
 * place (a run of digits or symbols) is the window cut anyway, and a start within a few
 * characters of that cut may differ.
 *
 * @example
 * findSentenceStarts('One. Two?\n\nThree'); // [5, 10, 11]
 */
export function findSentenceStarts(text: string, options: SentenceStartsOptions = {}): number[] {
  const window = Math.max(2, options.window ?? SENTENCE_WINDOW);
  const segment = options.segment ?? segmentSentences;
  const starts: number[] = [];
  const addStarts = (from: number, to: number) => {
    if (mayEndInside(text, from, to)) {
      for (const { index } of segment(text.slice(from, to))) {
        if (index > 0) starts.push(from + index);
      }
    } else {
      // Sentences end only at separators here: no need to ask the segmenter (it is slow).
      for (let i = from + 1; i < to; i += 1) if (startsAfterSeparator(text, i)) starts.push(i);
    }
  };
  let from = 0;
  while (text.length - from > window) {
    const cut = lastCut(text, from + Math.ceil(window / 2), from + window);
    addStarts(from, cut);
    if (startsAfterSeparator(text, cut)) starts.push(cut);
    from = cut;
  }
  if (text.length > from) addStarts(from, text.length);
  return starts;
}

/**
 * The last place in `[low, high]` where the text can be cut without changing its sentences, else
 * `high` (moved off the middle of a surrogate pair).
 */
function lastCut(text: string, low: number, high: number): number {
  for (let cut = high; cut >= low; cut -= 1) {
    if (startsAfterSeparator(text, cut) || isSafeCut(text, cut)) return cut;
  }
  return isLowSurrogate(text.charCodeAt(high)) ? high - 1 : high;
}

/** Whether `offset` follows a UAX #29 `Sep`, `CR` or `LF` (CR LF counting as one). */
function startsAfterSeparator(text: string, offset: number): boolean {
  const previous = text.charCodeAt(offset - 1);
  if (previous === CR) return text.charCodeAt(offset) !== LF;
  return previous === LF || previous === NEL || previous === LS || previous === PS;
}
