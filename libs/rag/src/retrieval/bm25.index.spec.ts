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

  it("finds an owner's chunks only in that owner's scope, ranking within the visible ones", () => {
    const bm25 = new Bm25Index();
    bm25.add([chunk('shared', 0, 'Tea is steeped in hot water.')]);
    bm25.add(
      [
        chunk('mine', 0, 'Green tea, tea and more tea: my tea notes.'),
        chunk('mine', 1, 'Tea tea tea.'),
      ],
      { owner: 'A' },
    );
    bm25.add([chunk('theirs', 0, 'Tea tea tea tea.')], { owner: 'B' });
    const ids = (scope?: { owner?: string; all?: boolean }, k = 1) =>
      bm25.search('tea', k, 0, scope).map((h) => h.id);
    // The best visible chunk, not the best chunk dropped afterwards.
    expect(ids()).toEqual(['shared:0']);
    expect(ids({ owner: 'C' }, 5)).toEqual(['shared:0']);
    expect(ids({ owner: 'A' }, 5).sort()).toEqual(['mine:0', 'mine:1', 'shared:0']);
    expect(ids({ owner: 'B' }, 1)).toEqual(['theirs:0']);
    expect(ids({ all: true }, 5)).toHaveLength(4);
    // Forgotten and re-added as shared, a chunk is everyone's.
    bm25.removeDocument('theirs');
    bm25.add([chunk('theirs', 0, 'Tea tea tea tea.')]);
    expect(ids({ owner: 'C' })).toEqual(['theirs:0']);
    expect(() => bm25.search('tea', 1, 0, { owner: '' })).toThrow(/owner/);
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

describe('Bm25Index coverage', () => {
  const bm25 = new Bm25Index();
  bm25.add([
    chunk('a', 0, 'Employees receive 25 vacation days per year.'),
    chunk('a', 1, 'Vacation requests go through the HR portal.'),
    chunk('b', 0, 'Descale the espresso machine once a month.'),
  ]);

  it('weighs query terms by rarity: a rare term covers more than a common one', () => {
    const [days] = bm25.search('vacation days', 1);
    expect(days.id).toBe('a:0');
    expect(days.coverage).toBeCloseTo(1, 10);
    const [portal] = bm25.search('vacation portal', 1);
    expect(portal.id).toBe('a:1');
    expect(portal.coverage).toBeCloseTo(1, 10);
    // "vacation" is in two chunks, "portal" in one: a:0 covers the smaller share.
    const a0 = bm25.search('vacation portal', 5).find((h) => h.id === 'a:0');
    expect(a0?.coverage).toBeGreaterThan(0);
    expect(a0?.coverage).toBeLessThan(0.5);
  });

  it('counts words no chunk contains against coverage, and typo matches a quarter', () => {
    const [hit] = bm25.search('espresso volcano eruption', 1);
    expect(hit.id).toBe('b:0');
    // Unknown words weigh the most: espresso's share is below a third.
    expect(hit.coverage).toBeGreaterThan(0.1);
    expect(hit.coverage).toBeLessThan(1 / 3);
    expect(bm25.search('espreso', 1)[0].coverage).toBeCloseTo(0.25, 10);
  });

  it('leaves out chunks below minCoverage before taking the top k', () => {
    expect(bm25.search('espresso volcano eruption', 5, 0.5)).toEqual([]);
    const covered = bm25.search('vacation portal', 5, 0.5);
    expect(covered.map((h) => h.id)).toEqual(['a:1']);
  });

  it('keeps document frequencies right when chunks are replaced or removed', () => {
    const local = new Bm25Index();
    local.add([chunk('x', 0, 'kettle descaling'), chunk('y', 0, 'kettle cleaning')]);
    const shared = local.search('kettle descaling', 1)[0].coverage;
    local.removeDocument('y');
    local.add([chunk('x', 0, 'kettle descaling')]);
    // With one chunk left, both terms are equally rare.
    expect(local.search('kettle descaling', 1)[0].coverage).toBeCloseTo(1, 10);
    expect(shared).toBeCloseTo(1, 10);
    expect(local.search('kettle', 1)[0].coverage).toBeCloseTo(1, 10);
    local.clear();
    expect(local.search('kettle', 1)).toEqual([]);
  });
});
