import { ValidationError } from '../../../providers/src/internal.js';
import { TopK } from './top-k.js';

/**
 * Copies a vector into a `Float32Array` scaled to length 1, so cosine similarity becomes a plain
 * dot product. A zero vector stays zero (it is similar to nothing). Wrong length → 422.
 */
export function toUnitVector(vector: ArrayLike<number>, dimensions: number): Float32Array {
  if (vector.length !== dimensions) {
    throw new ValidationError([
      { param: 'vector', problem: `must have ${dimensions} dimensions (got ${vector.length})` },
    ]);
  }
  const out = Float32Array.from(vector);
  let norm = 0;
  for (let i = 0; i < out.length; i += 1) norm += out[i] * out[i];
  if (!Number.isFinite(norm)) {
    throw new ValidationError([{ param: 'vector', problem: 'must hold finite numbers only' }]);
  }
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i += 1) out[i] *= scale;
  }
  return out;
}

/** A row of a matrix and its score. */
export interface ScoredRow {
  row: number;
  score: number;
}

/**
 * Which rows a scan may return (e.g. those of the documents a caller sees); rows it refuses are
 * skipped before they are scored, so the top k are the best of the accepted rows.
 */
export type RowFilter = (row: number) => boolean;

/**
 * Dot product of `query` with the vector stored at `matrix[base..base + dimensions)`, four-way
 * unrolled (the inner loop of every scan).
 */
export function dotAt(
  matrix: Float32Array,
  base: number,
  query: Float32Array,
  dimensions: number,
): number {
  const tail = dimensions - (dimensions % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < tail; i += 4) {
    s0 += matrix[base + i] * query[i];
    s1 += matrix[base + i + 1] * query[i + 1];
    s2 += matrix[base + i + 2] * query[i + 2];
    s3 += matrix[base + i + 3] * query[i + 3];
  }
  for (let i = tail; i < dimensions; i += 1) s0 += matrix[base + i] * query[i];
  return s0 + s1 + s2 + s3;
}

/**
 * Exact top-k by dot product over `rows` unit vectors stored back to back in `matrix`, among the
 * rows `accept` lets through (all without it). One pass keeping the k best in a {@link TopK}:
 * O(rows × dimensions) time, O(k) extra memory.
 */
export function scanTopK(
  matrix: Float32Array,
  rows: number,
  dimensions: number,
  query: Float32Array,
  k: number,
  accept?: RowFilter,
): ScoredRow[] {
  const size = Math.min(k, rows);
  if (size <= 0) return [];
  const best = new TopK(size);
  for (let row = 0, base = 0; row < rows; row += 1, base += dimensions) {
    if (accept && !accept(row)) continue;
    const score = dotAt(matrix, base, query, dimensions);
    if (score > best.floor) best.offer(score, row);
  }
  return best.results();
}

/** True when every component is 0 (such a query is similar to nothing). */
export function isZero(vector: Float32Array): boolean {
  return vector.every((x) => x === 0);
}

/** `topK` must be a positive integer; anything else is a 422 naming it. */
export function assertTopK(topK: number): void {
  if (!Number.isInteger(topK) || topK < 1) {
    throw new ValidationError([
      { param: 'top_k', problem: `must be a positive integer (got ${topK})` },
    ]);
  }
}
