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

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Finds paragraph, sentence (Unicode UAX #29, any language) and word boundaries. */
export function findBoundaries(text: string): TextBoundaries {
  const paragraphs = offsetsAfter(text, /\n[ \t]*\n\s*/g);
  // A lone line break is layout (wrapped PDF lines), not a sentence end: hide it from the
  // segmenter with a same-length space so offsets stay valid.
  const flowed = text.replace(/(?<!\n)\n(?!\n)/g, ' ');
  const sentences = new Set(paragraphs);
  for (const { index } of sentenceSegmenter.segment(flowed)) if (index > 0) sentences.add(index);
  return {
    paragraphs,
    sentences: [...sentences].sort((a, b) => a - b),
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

function offsetsAfter(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    if (match.index > 0 && end < text.length) out.push(end);
  }
  return out;
}
