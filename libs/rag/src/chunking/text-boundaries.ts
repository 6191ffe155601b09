import { findSentenceStarts } from './sentence-starts.js';

/**
 * Offsets in a text where a chunk may end and the next begin, by strength. Each list is sorted
 * and holds the offset of the first character AFTER the break (after its whitespace).
 */
export interface TextBoundaries {
  /** Starts of paragraphs (after a blank line). */
  paragraphs: number[];
  /** Starts of sentences, paragraphs included. */
  sentences: number[];
  /** Starts of words (after any whitespace). */
  words: number[];
}

/**
 * Finds paragraph, sentence (Unicode UAX #29, any language) and word boundaries, in time linear
 * in the text's length.
 */
export function findBoundaries(text: string): TextBoundaries {
  const paragraphs = offsetsAfter(text, /\n[ \t]*\n\s*/g);
  // A lone line break is layout (wrapped PDF lines), not a sentence end: hide it from the
  // segmenter with a same-length space so offsets stay valid.
  const flowed = text.replace(/(?<!\n)\n(?!\n)/g, ' ');
  return {
    paragraphs,
    sentences: mergeSorted(paragraphs, findSentenceStarts(flowed)),
    words: offsetsAfter(text, /\s+/g),
  };
}

/** Largest value in `sorted` with `low < value <= high`, if any. */
export function lastInRange(sorted: number[], low: number, high: number): number | undefined {
  const i = upperBound(sorted, high) - 1;
  return i >= 0 && sorted[i] > low ? sorted[i] : undefined;
}

/** Smallest value in `sorted` with `low <= value < high`, if any. */
export function firstInRange(sorted: number[], low: number, high: number): number | undefined {
  const i = upperBound(sorted, low - 1);
  return i < sorted.length && sorted[i] < high ? sorted[i] : undefined;
}

/** Index of the first value greater than `value`. */
export function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The values of two sorted lists, sorted, each once. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
    if (i < a.length && a[i] === next) i += 1;
    if (j < b.length && b[j] === next) j += 1;
  }
  return out;
}

function offsetsAfter(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    if (match.index > 0 && end < text.length) out.push(end);
  }
  return out;
}
