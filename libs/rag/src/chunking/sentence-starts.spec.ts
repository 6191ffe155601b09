import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { sampleTexts } from './__fixtures__/sample-texts.js';
import { findSentenceStarts, SENTENCE_WINDOW, type SentenceSegmenter } from './sentence-starts.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** The oracle: the whole text in one segmenter call (quick below ~100 KB). */
const wholeText = (text: string) =>
  [...segmenter.segment(text)].map(({ index }) => index).filter((index) => index > 0);

/** The real segmenter, recording the length of every text it is given. */
function spy(): { segment: SentenceSegmenter; lengths: number[] } {
  const lengths: number[] = [];
  return {
    lengths,
    segment: (text) => {
      lengths.push(text.length);
      return segmenter.segment(text);
    },
  };
}

describe('findSentenceStarts', () => {
  it.each(sampleTexts())('finds the same starts as whole-text segmentation in %s', (_, text) => {
    for (const window of [SENTENCE_WINDOW, 256, 40]) {
      expect(findSentenceStarts(text, { window })).toEqual(wholeText(text));
    }
  });

  it('finds the same starts in any text with letters, however small the window', () => {
    // Every piece holds two adjacent letters, so each half window has a place to cut.
    const word = fc.constantFrom(
      'ab',
      'Word',
      'mr',
      'U.S',
      'e.g',
      'Ωμέγα',
      '中文',
      'Cafe\u0301',
      'क्षि',
    );
    const after = fc.constantFrom(
      ...[' ', '. ', '.', '? ', '! ', '.) ', '." ', '”', ', ', ' 3.5 ', '。', '！', '\n', '\n\n'],
      ...['\r\n', '\r', '\u2029', '\u0085', '\u00a0', '\u00ad', '\u0301', ' 😀 ', '…', ':'],
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, after), { maxLength: 60 }),
        fc.integer({ min: 40, max: 120 }),
        (pieces, window) => {
          const text = pieces.map(([w, a]) => w + a).join('');
          expect(findSentenceStarts(text, { window })).toEqual(wholeText(text));
        },
      ),
      { numRuns: 2000, seed: 26 },
    );
  });

  it.each([
    ['prose in one paragraph', 'The quick brown fox jumps over the lazy dog. '],
    ['Chinese', '我们今天去公园散步，天气很好！'],
    ['short sentences', 'A. '],
    ['tiny paragraphs', 'a.\n\n'],
    ['digits', '0123456789'],
    ['dots', '.'],
    ['one word', 'x'],
    ['astral symbols', '😀'],
  ])(
    'never gives the segmenter more than a window of %s, and moves half a window per call',
    (_, unit) => {
      const text = unit.repeat(Math.ceil(300_000 / unit.length));
      const window = 1000;
      const { segment, lengths } = spy();
      findSentenceStarts(text, { window, segment });
      expect(Math.max(...lengths)).toBeLessThanOrEqual(window);
      expect(lengths.length).toBeLessThanOrEqual(Math.ceil(text.length / (window / 2 - 1)));
    },
  );

  it('does not ask the segmenter when sentences can end only at separators', () => {
    const { segment, lengths } = spy();
    expect(findSentenceStarts('one\ntwo\r\nthree\u2029four five', { segment })).toEqual([4, 9, 15]);
    expect(findSentenceStarts('Item a.\n\nItem b!\n', { segment })).toEqual([8, 9]);
    expect(lengths).toEqual([]);
  });
});
