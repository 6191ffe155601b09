import { describe, expect, it } from '@jest/globals';
import { clusteredVectors } from '../../test/support/clustered-vectors.js';
import { IvfIndex } from './ivf-index.js';
import { sphericalKMeans } from './spherical-kmeans.js';
import { scanTopK } from './vector-math.js';

const D = 96;
const ROWS = 20_000;

async function trained(data: Float32Array, rows: number): Promise<IvfIndex> {
  const lists = Math.round(Math.sqrt(rows));
  const centroids = await sphericalKMeans(data.subarray(0, lists * 64 * D), lists * 64, D, {
    lists,
  });
  const index = new IvfIndex(D, centroids, rows);
  index.append(index.assign(data.subarray(0, rows * D)));
  return index;
}

function recall(found: { row: number }[], exact: { row: number }[]): number {
  const truth = new Set(exact.map((h) => h.row));
  return found.filter((h) => truth.has(h.row)).length / exact.length;
}

describe('IvfIndex', () => {
  it('finds ≥ 95 % of the exact top 10 on clustered data at 20k rows, scanning a fraction', async () => {
    const source = clusteredVectors({ dimensions: D, centres: 200, noise: 1, seed: 11 });
    const data = source.next(ROWS);
    const queries = source.next(100);
    const index = await trained(data, ROWS);
    expect(index.lists).toBe(141);
    let total = 0;
    for (let q = 0; q < 100; q += 1) {
      const query = queries.subarray(q * D, (q + 1) * D);
      const hits = index.search(data, query, 10, 8);
      expect(hits).toHaveLength(10);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
      total += recall(hits, scanTopK(data, ROWS, D, query, 10));
    }
    expect(total / 100).toBeGreaterThanOrEqual(0.95);
  }, 30_000);

  it('ranks only the rows a filter accepts, however few, like an exact filtered scan', async () => {
    const data = clusteredVectors({ dimensions: D, centres: 40, noise: 0.5, seed: 13 }).next(2000);
    const index = await trained(data, 2000);
    // One row in 100 is visible: the probed lists near the query hold almost none of them.
    const accept = (row: number) => row % 100 === 7;
    const query = data.subarray(0, D);
    const hits = index.search(data, query, 10, 1, accept);
    expect(hits.every((h) => accept(h.row))).toBe(true);
    expect(hits).toEqual(scanTopK(data, 2000, D, query, 10, accept));
    expect(index.search(data, query, 50, 1, accept)).toHaveLength(20);
  });

  it('returns min(k, rows) hits even when the probed lists hold fewer', async () => {
    const data = clusteredVectors({ dimensions: D, centres: 40, noise: 0.5, seed: 12 }).next(2000);
    const index = await trained(data, 2000);
    const query = data.subarray(0, D);
    expect(index.search(data, query, 500, 1)).toHaveLength(500);
    expect(index.search(data, query, 5000, 1)).toHaveLength(2000);
  });

  it('follows removals and appends: removed rows are never returned, later rows shift', async () => {
    const data = clusteredVectors({ dimensions: D, centres: 20, noise: 0.5, seed: 13 }).next(3000);
    const index = await trained(data, 3000);
    // Remove rows 100..199 from a copy of the matrix and from the index.
    const matrix = new Float32Array(data);
    matrix.copyWithin(100 * D, 200 * D);
    index.remove(100, 100);
    expect(index.rows).toBe(2900);
    const live = matrix.subarray(0, 2900 * D);
    const removedQuery = data.subarray(150 * D, 151 * D);
    const hits = index.search(live, removedQuery, 50, 4);
    expect(hits.every((h) => h.row < 2900)).toBe(true);
    // A row equal to the removed vector no longer exists: the best hit is not a perfect match.
    expect(hits[0].score).toBeLessThan(0.9999);
    // The row that was 250 is now 150 and is found as itself.
    expect(index.search(live, data.subarray(250 * D, 251 * D), 1, 4)[0]).toMatchObject({
      row: 150,
    });
    // An appended vector goes to its nearest list and is found.
    const extra = clusteredVectors({ dimensions: D, centres: 20, noise: 0.5, seed: 14 }).next(1);
    index.append(index.assign(extra));
    const grown = new Float32Array(2901 * D);
    grown.set(live);
    grown.set(extra, 2900 * D);
    const top = index.search(grown, extra, 1, 1)[0];
    expect(top.row).toBe(2900);
    expect(top.score).toBeCloseTo(1, 5);
  });
});
