import { scanTopK, type RowFilter, type ScoredRow } from './vector-math.js';

/**
 * Unit vectors stored back to back in one growable `Float32Array` (capacity doubles), so a scan
 * touches contiguous memory. Rows are addressed by position; removing a range shifts later rows
 * down.
 */
export class VectorMatrix {
  private data: Float32Array;
  private used = 0;

  constructor(
    readonly dimensions: number,
    initialRows = 1024,
  ) {
    this.data = new Float32Array(Math.max(1, initialRows) * dimensions);
  }

  /** Number of rows. */
  get rows(): number {
    return this.used;
  }

  /** Appends rows (`vectors.length` must be a multiple of `dimensions`); returns the first new row. */
  append(vectors: Float32Array): number {
    const added = vectors.length / this.dimensions;
    this.reserve(this.used + added);
    this.data.set(vectors, this.used * this.dimensions);
    const first = this.used;
    this.used += added;
    return first;
  }

  /** Removes `count` rows starting at `first`, moving later rows down. */
  remove(first: number, count: number): void {
    const d = this.dimensions;
    this.data.copyWithin(first * d, (first + count) * d, this.used * d);
    this.used -= count;
  }

  /** A view of `count` rows from `first` (shares memory: copy it before the matrix changes). */
  view(first: number, count: number): Float32Array {
    return this.data.subarray(first * this.dimensions, (first + count) * this.dimensions);
  }

  /** All rows back to back (shares memory: valid until the matrix changes). */
  raw(): Float32Array {
    return this.data.subarray(0, this.used * this.dimensions);
  }

  /** Exact top-k rows by dot product with a unit `query`, among the rows `accept` lets through. */
  search(query: Float32Array, k: number, accept?: RowFilter): ScoredRow[] {
    return scanTopK(this.data, this.used, this.dimensions, query, k, accept);
  }

  /** Drops every row (keeps the allocated memory). */
  clear(): void {
    this.used = 0;
  }

  /** Grows the capacity to at least `rows` rows (e.g. before loading a known number of rows). */
  reserve(rows: number): void {
    if (rows * this.dimensions <= this.data.length) return;
    let capacity = this.data.length / this.dimensions;
    while (capacity < rows) capacity *= 2;
    const grown = new Float32Array(capacity * this.dimensions);
    grown.set(this.data.subarray(0, this.used * this.dimensions));
    this.data = grown;
  }
}
