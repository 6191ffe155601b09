/**
 * For each row in `[from, to)` of `data` (unit vectors back to back), the index of the centroid
 * with the highest dot product, written to `out[row - from]`. Blocked two rows × four centroids
 * so each value loaded from memory feeds several multiply-adds: about twice as fast as one dot
 * product at a time in V8. Returns the summed best scores (a training-quality measure).
 */
export function nearestCentroids(
  data: Float32Array,
  from: number,
  to: number,
  dimensions: number,
  centroids: Float32Array,
  out: Int32Array,
): number {
  const d = dimensions;
  const lists = centroids.length / d;
  const wide = lists - (lists % 4);
  let total = 0;
  let row = from;
  for (; row + 1 < to; row += 2) {
    const a = row * d;
    const b = a + d;
    let bestA = -Infinity;
    let listA = 0;
    let bestB = -Infinity;
    let listB = 0;
    for (let c = 0; c < wide; c += 4) {
      const c0 = c * d;
      const c1 = c0 + d;
      const c2 = c1 + d;
      const c3 = c2 + d;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let b0 = 0;
      let b1 = 0;
      let b2 = 0;
      let b3 = 0;
      for (let i = 0; i < d; i += 1) {
        const x = data[a + i];
        const y = data[b + i];
        const q0 = centroids[c0 + i];
        const q1 = centroids[c1 + i];
        const q2 = centroids[c2 + i];
        const q3 = centroids[c3 + i];
        a0 += x * q0;
        a1 += x * q1;
        a2 += x * q2;
        a3 += x * q3;
        b0 += y * q0;
        b1 += y * q1;
        b2 += y * q2;
        b3 += y * q3;
      }
      if (a0 > bestA) {
        bestA = a0;
        listA = c;
      }
      if (a1 > bestA) {
        bestA = a1;
        listA = c + 1;
      }
      if (a2 > bestA) {
        bestA = a2;
        listA = c + 2;
      }
      if (a3 > bestA) {
        bestA = a3;
        listA = c + 3;
      }
      if (b0 > bestB) {
        bestB = b0;
        listB = c;
      }
      if (b1 > bestB) {
        bestB = b1;
        listB = c + 1;
      }
      if (b2 > bestB) {
        bestB = b2;
        listB = c + 2;
      }
      if (b3 > bestB) {
        bestB = b3;
        listB = c + 3;
      }
    }
    for (let c = wide; c < lists; c += 1) {
      const sa = dot(data, a, centroids, c * d, d);
      const sb = dot(data, b, centroids, c * d, d);
      if (sa > bestA) {
        bestA = sa;
        listA = c;
      }
      if (sb > bestB) {
        bestB = sb;
        listB = c;
      }
    }
    out[row - from] = listA;
    out[row + 1 - from] = listB;
    total += bestA + bestB;
  }
  if (row < to) {
    let best = -Infinity;
    let list = 0;
    for (let c = 0; c < lists; c += 1) {
      const s = dot(data, row * d, centroids, c * d, d);
      if (s > best) {
        best = s;
        list = c;
      }
    }
    out[row - from] = list;
    total += best;
  }
  return total;
}

function dot(x: Float32Array, xAt: number, y: Float32Array, yAt: number, d: number): number {
  let s = 0;
  for (let i = 0; i < d; i += 1) s += x[xAt + i] * y[yAt + i];
  return s;
}
