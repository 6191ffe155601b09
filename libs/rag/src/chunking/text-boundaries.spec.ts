import { describe, expect, it } from '@jest/globals';
import { sampleTexts } from './__fixtures__/sample-texts.js';
import { findBoundaries } from './text-boundaries.js';

/** The sentence starts as found before windowing: the whole text in one segmenter call. */
function wholeTextSentences(text: string): number[] {
  const { paragraphs } = findBoundaries(text);
  const flowed = text.replace(/(?<!\n)\n(?!\n)/g, ' ');
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  const starts = new Set(paragraphs);
  for (const { index } of segmenter.segment(flowed)) if (index > 0) starts.add(index);
  return [...starts].sort((a, b) => a - b);
}

describe('findBoundaries', () => {
  const samples = sampleTexts();

  it('has real documents to compare on', () => {
    expect(samples.filter(([, text]) => text.length > 5000).length).toBeGreaterThanOrEqual(3);
  });

  it.each(samples)('finds the sentences of %s that whole-text segmentation finds', (_, text) => {
    expect(findBoundaries(text).sentences).toEqual(wholeTextSentences(text));
  });

  it('finds paragraph, sentence and word starts (a sentence also starts between two line breaks)', () => {
    const text = 'One two.  Three?\n\nFour five\nsix.';
    expect(findBoundaries(text)).toEqual({
      paragraphs: [18],
      sentences: [10, 17, 18],
      words: [4, 10, 18, 23, 28],
    });
  });
});
