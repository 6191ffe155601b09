import { ValidationError } from '../../errors/validation.error.js';

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
 * Exact top-k by dot product over `rows` unit vectors stored back to back in `matrix`. One pass,
 * four-way unrolled, keeping the k best in a small sorted buffer: O(rows × dimensions) time,
 * O(k) extra memory.
 */
export function scanTopK(
  matrix: Float32Array,
  rows: number,
  dimensions: number,
  query: Float32Array,
  k: number,
): ScoredRow[] {
  const size = Math.min(k, rows);
  if (size <= 0) return [];
  const bestScores = new Float64Array(size).fill(-Infinity);
  const bestRows = new Int32Array(size).fill(-1);
  const tail = dimensions - (dimensions % 4);
  for (let row = 0, base = 0; row < rows; row += 1, base += dimensions) {
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
    const score = s0 + s1 + s2 + s3;
    if (score <= bestScores[size - 1]) continue;
    let at = size - 1;
    while (at > 0 && bestScores[at - 1] < score) {
      bestScores[at] = bestScores[at - 1];
      bestRows[at] = bestRows[at - 1];
      at -= 1;
    }
    bestScores[at] = score;
    bestRows[at] = row;
  }
  const out: ScoredRow[] = [];
  for (let i = 0; i < size; i += 1) {
    if (bestRows[i] >= 0) out.push({ row: bestRows[i], score: bestScores[i] });
  }
  return out;
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
