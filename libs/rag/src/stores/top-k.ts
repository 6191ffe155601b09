import { dotAt, type RowFilter, type ScoredRow } from './vector-math.js';

/**
 * The k best (score, row) pairs seen so far, kept sorted best first in two typed arrays. For the
 * small k of a search (≤ a few hundred) insertion into a sorted buffer beats a heap: most
 * candidates fail the `floor` check and cost one comparison.
 */
export class TopK {
  readonly scores: Float64Array;
  readonly rows: Int32Array;
  private filled = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k).fill(-Infinity);
    this.rows = new Int32Array(k).fill(-1);
  }

  /** Pairs held (at most k). */
  get size(): number {
    return this.filled;
  }

  /** The score a candidate must beat to enter (−∞ until k pairs are held). */
  get floor(): number {
    return this.scores[this.k - 1];
  }

  /** Offers a candidate; kept when it beats the current k-th best. */
  offer(score: number, row: number): void {
    const { scores, rows } = this;
    if (score <= scores[this.k - 1]) return;
    let at = this.k - 1;
    while (at > 0 && scores[at - 1] < score) {
      scores[at] = scores[at - 1];
      rows[at] = rows[at - 1];
      at -= 1;
    }
    scores[at] = score;
    rows[at] = row;
    if (this.filled < this.k) this.filled += 1;
  }

  /** The pairs held, best first. */
  results(): ScoredRow[] {
    const out: ScoredRow[] = [];
    for (let i = 0; i < this.filled; i += 1) out.push({ row: this.rows[i], score: this.scores[i] });
    return out;
  }
}

/**
 * Offers the rows `ids[from..to)` of a matrix of unit vectors (stored back to back) to `best`,
 * scored by dot product with `query`, skipping those `accept` refuses; returns how many rows
 * were offered.
 */
export function scanRows(
  matrix: Float32Array,
  dimensions: number,
  query: Float32Array,
  ids: Int32Array,
  from: number,
  to: number,
  best: TopK,
  accept?: RowFilter,
): number {
  let offered = 0;
  for (let at = from; at < to; at += 1) {
    const row = ids[at];
    if (accept && !accept(row)) continue;
    offered += 1;
    const score = dotAt(matrix, row * dimensions, query, dimensions);
    if (score > best.floor) best.offer(score, row);
  }
  return offered;
}
