import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { chunkText } from './chunker.js';

const sentence = (n: number, words = 8) =>
  `Sentence ${n} ${Array.from({ length: words - 2 }, (_, i) => `word${i}`).join(' ')}.`;

describe('chunkText', () => {
  it('keeps a short text as one chunk with its offsets', () => {
    const text = '  Hello world.  ';
    expect(chunkText({ documentId: 'd', text })).toEqual([
      { id: 'd:0', documentId: 'd', index: 0, text: 'Hello world.', start: 2, end: 14 },
    ]);
  });

  it('cuts at paragraph breaks before sentence ends', () => {
    const p1 = [1, 2, 3].map((n) => sentence(n)).join(' ');
    const p2 = [4, 5, 6].map((n) => sentence(n)).join(' ');
    const text = `${p1}\n\n${p2}`;
    const chunks = chunkText({ documentId: 'd', text }, { size: p1.length + 40, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual([p1, p2]);
  });

  it('cuts long paragraphs at sentence ends, in any script', () => {
    const text = 'Это первое предложение. Это второе предложение! А это третье?';
    const chunks = chunkText({ documentId: 'd', text }, { size: 30, overlap: 0 });
    expect(chunks.map((c) => c.text)).toEqual([
      'Это первое предложение.',
      'Это второе предложение!',
      'А это третье?',
    ]);
  });

  it('does not treat a wrapped line as a sentence end', () => {
    const text = 'The yield rose by\ntwelve percent this year. Costs fell sharply afterwards.';
    const chunks = chunkText({ documentId: 'd', text }, { size: 50, overlap: 0 });
    expect(chunks[0].text).toBe('The yield rose by\ntwelve percent this year.');
  });

  it('falls back to word boundaries, then hard cuts', () => {
    const words = chunkText(
      { documentId: 'd', text: 'alpha beta gamma delta' },
      { size: 12, overlap: 0 },
    );
    expect(words.map((c) => c.text)).toEqual(['alpha beta', 'gamma delta']);
    const hard = chunkText({ documentId: 'd', text: 'x'.repeat(25) }, { size: 10, overlap: 0 });
    expect(hard.map((c) => c.text.length)).toEqual([10, 10, 5]);
  });

  it('repeats whole trailing sentences as overlap', () => {
    const text = [1, 2, 3, 4, 5, 6].map((n) => sentence(n, 5)).join(' ');
    const chunks = chunkText({ documentId: 'd', text }, { size: 100, overlap: 40 });
    for (let i = 1; i < chunks.length; i += 1) {
      const shared = chunks[i - 1].end - chunks[i].start;
      expect(shared).toBeGreaterThan(0);
      expect(shared).toBeLessThanOrEqual(40);
      expect(chunks[i].text).toMatch(/^Sentence \d/);
    }
  });

  it('measures approximate tokens as 4 characters', () => {
    const text = 'word '.repeat(200).trim();
    const chunks = chunkText({ documentId: 'd', text }, { size: 25, overlap: 0, unit: 'tokens' });
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeLessThanOrEqual(100);
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeGreaterThan(90);
  });

  it('names the pages a chunk starts and ends on', () => {
    const one = sentence(1, 10);
    const two = sentence(2, 10);
    const text = `${one}\n\n${two}`;
    const pages = [
      { number: 1, text: one, start: 0, end: one.length },
      { number: 2, text: two, start: one.length + 2, end: text.length },
    ];
    const [a, b] = chunkText({ documentId: 'd', text, pages }, { size: one.length, overlap: 0 });
    expect([a.page, a.pageEnd, b.page]).toEqual([1, undefined, 2]);
    const [whole] = chunkText({ documentId: 'd', text, pages }, { size: 1000 });
    expect([whole.page, whole.pageEnd]).toEqual([1, 2]);
  });

  it.each([
    [{ size: 0 }, 'chunking.size must be a positive integer (got 0)'],
    [
      { size: 100, overlap: 100 },
      'chunking.overlap must be an integer from 0 to size - 1 (got 100 with size 100)',
    ],
    [
      { overlap: -1 },
      'chunking.overlap must be an integer from 0 to size - 1 (got -1 with size 1000)',
    ],
  ])('refuses bad options %j', (options, problem) => {
    expect(() => chunkText({ documentId: 'd', text: 'x' }, options)).toThrow(ConfigError);
    expect(() => chunkText({ documentId: 'd', text: 'x' }, options)).toThrow(problem);
  });

  it('always covers the text with bounded, progressing, exactly-sliced chunks', () => {
    const pieces = fc.constantFrom(
      'Lorem ipsum',
      'dolor.',
      'Sit amet!',
      '\n\n',
      '\n',
      ' ',
      'é',
      'x'.repeat(30),
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 80 }).map((parts) => parts.join(' ')),
        fc.integer({ min: 5, max: 120 }),
        fc.integer({ min: 0, max: 100 }),
        (text, size, rawOverlap) => {
          const overlap = rawOverlap % size;
          const chunks = chunkText({ documentId: 'd', text }, { size, overlap });
          let covered = 0;
          chunks.forEach((chunk, i) => {
            expect(chunk.index).toBe(i);
            expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
            expect(chunk.text.length).toBeLessThanOrEqual(size);
            expect(chunk.text.trim()).toBe(chunk.text);
            expect(text.slice(covered, chunk.start).trim()).toBe('');
            if (i > 0) {
              expect(chunk.start).toBeGreaterThan(chunks[i - 1].start);
              expect(chunk.end).toBeGreaterThan(chunks[i - 1].end);
              expect(Math.max(0, chunks[i - 1].end - chunk.start)).toBeLessThanOrEqual(overlap);
            }
            covered = Math.max(covered, chunk.end);
          });
          expect(text.slice(covered).trim()).toBe('');
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
