import { describe, expect, it } from '@jest/globals';
import type { Chunk } from '../chunking/chunk.types.js';
import { Bm25Index } from './bm25.index.js';

const chunk = (documentId: string, index: number, text: string): Chunk => ({
  id: `${documentId}:${index}`,
  documentId,
  index,
  text,
  start: 0,
  end: text.length,
});

describe('Bm25Index', () => {
  const build = () => {
    const bm25 = new Bm25Index();
    bm25.add([
      chunk('a', 0, 'Employees receive 25 vacation days per year.'),
      chunk('a', 1, 'Vacation requests go through the HR portal.'),
      chunk('b', 0, 'Descale the espresso machine once a month.'),
      chunk('c', 0, 'The café in Zürich opens at eight.'),
    ]);
    return bm25;
  };

  it('ranks by BM25 with stemming, accent folding, prefixes and typos', () => {
    const bm25 = build();
    expect(bm25.size).toBe(4);
    expect(bm25.search('How many vacation days?', 2).map((h) => h.id)).toEqual(['a:0', 'a:1']);
    expect(bm25.search('descaling', 1).map((h) => h.id)).toEqual(['b:0']);
    expect(bm25.search('cafe zurich', 1).map((h) => h.id)).toEqual(['c:0']);
    expect(bm25.search('espreso', 1).map((h) => h.id)).toEqual(['b:0']);
    expect(bm25.search('the of and', 5)).toEqual([]);
  });

  it('forgets a whole document and replaces re-added chunks', () => {
    const bm25 = build();
    expect(bm25.removeDocument('a')).toBe(true);
    expect(bm25.removeDocument('a')).toBe(false);
    expect(bm25.search('vacation', 5)).toEqual([]);
    bm25.add([chunk('b', 0, 'Water the ficus weekly.')]);
    expect(bm25.size).toBe(2);
    expect(bm25.search('espresso', 5)).toEqual([]);
    expect(bm25.search('ficus', 5).map((h) => h.id)).toEqual(['b:0']);
    bm25.clear();
    expect(bm25.size).toBe(0);
  });
});
