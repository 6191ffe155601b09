import { nearestCentroids } from './nearest-centroid.js';
import { scanRows, TopK } from './top-k.js';
import { scanTopK, type RowFilter, type ScoredRow } from './vector-math.js';

/**
 * An inverted-file (IVF) index over the rows of a vector matrix: `lists` unit centroids (from
 * spherical k-means) and, for each row, the list of its nearest centroid. A search ranks the
 * centroids against the query, scans the rows of the `nprobe` best lists exactly and keeps the
 * top k — a fraction of a full scan, missing a true neighbour only when it sits in a list that
 * was not probed.
 *
 * The index mirrors the matrix row for row: call {@link append} and {@link remove} with every
 * change to the matrix. The per-list row ids are rebuilt lazily (a counting sort, O(rows)) at
 * the first search after a change.
 */
export class IvfIndex {
  private rowLists: Int32Array;
  private used = 0;
  private offsets: Int32Array | undefined;
  private members: Int32Array | undefined;

  /**
   * @param centroids `lists × dimensions` unit vectors.
   * @param trainedRows rows the centroids were trained for (a retrain is due when the matrix
   * has grown well past it).
   */
  constructor(
    readonly dimensions: number,
    readonly centroids: Float32Array,
    readonly trainedRows: number,
  ) {
    this.rowLists = new Int32Array(Math.max(1024, trainedRows));
  }

  /** Number of lists (centroids). */
  get lists(): number {
    return this.centroids.length / this.dimensions;
  }

  /** Number of rows indexed. */
  get rows(): number {
    return this.used;
  }

  /** The nearest list of each vector (`vectors` holds unit vectors back to back). */
  assign(vectors: Float32Array): Int32Array {
    const count = vectors.length / this.dimensions;
    const out = new Int32Array(count);
    nearestCentroids(vectors, 0, count, this.dimensions, this.centroids, out);
    return out;
  }

  /** Appends rows that belong to the given lists (e.g. from {@link assign}). */
  append(lists: Int32Array): void {
    if (this.used + lists.length > this.rowLists.length) {
      let capacity = this.rowLists.length;
      while (capacity < this.used + lists.length) capacity *= 2;
      const grown = new Int32Array(capacity);
      grown.set(this.rowLists.subarray(0, this.used));
      this.rowLists = grown;
    }
    this.rowLists.set(lists, this.used);
    this.used += lists.length;
    this.offsets = undefined;
  }

  /** Removes `count` rows from `first`, later rows moving down (as in the matrix). */
  remove(first: number, count: number): void {
    this.rowLists.copyWithin(first, first + count, this.used);
    this.used -= count;
    this.offsets = undefined;
  }

  /** The lists of `count` rows from `first` (a copy). */
  listsOf(first: number, count: number): Int32Array {
    return this.rowLists.slice(first, first + count);
  }

  /**
   * The `k` best rows of `matrix` (the indexed rows, back to back) for a unit `query` among
   * those `accept` lets through (all without it): scans the `nprobe` lists whose centroids score
   * highest, and further lists while fewer than `k` accepted rows were seen, so it returns
   * `min(k, accepted rows)` hits like an exact scan, however few rows a filter accepts; with a
   * filter, further lists until as many accepted rows were scanned as `nprobe` lists hold on
   * average (all of them when fewer are accepted: then the result is exact).
   */
  search(
    matrix: Float32Array,
    query: Float32Array,
    k: number,
    nprobe: number,
    accept?: RowFilter,
  ): ScoredRow[] {
    if (this.used === 0) return [];
    const { offsets, members } = this.listIndex();
    const ranked = scanTopK(this.centroids, this.lists, this.dimensions, query, this.lists);
    const best = new TopK(Math.min(k, this.used));
    // With a filter, lists are probed until as many accepted rows were scanned as `nprobe`
    // lists hold on average: a sparse filter (few visible rows) costs more lists, up to an
    // exact scan of the visible rows, instead of a worse recall.
    const enough = accept ? Math.max(best.k, Math.ceil((nprobe * this.used) / this.lists)) : best.k;
    let seen = 0;
    for (let i = 0; i < ranked.length && (i < nprobe || seen < enough); i += 1) {
      const list = ranked[i].row;
      const from = offsets[list];
      const to = offsets[list + 1];
      seen += scanRows(matrix, this.dimensions, query, members, from, to, best, accept);
    }
    return best.results();
  }

  /** Row ids grouped by list (CSR: list `l` holds `members[offsets[l]..offsets[l+1])`). */
  private listIndex(): { offsets: Int32Array; members: Int32Array } {
    if (this.offsets && this.members) return { offsets: this.offsets, members: this.members };
    const offsets = new Int32Array(this.lists + 1);
    for (let row = 0; row < this.used; row += 1) offsets[this.rowLists[row] + 1] += 1;
    for (let list = 0; list < this.lists; list += 1) offsets[list + 1] += offsets[list];
    const next = offsets.slice(0, this.lists);
    const members = new Int32Array(this.used);
    for (let row = 0; row < this.used; row += 1) members[next[this.rowLists[row]]++] = row;
    this.offsets = offsets;
    this.members = members;
    return { offsets, members };
  }
}
