/**
 * Embedding-like benchmark data: unit vectors scattered around random unit centres (like
 * sentence embeddings of texts on ~1,000 topics). A vector is `normalise(centre + noise · g/√d)`
 * with g standard normal, so noise 1 puts it at cosine ≈ 0.71 from its centre and two vectors of
 * one cluster at cosine ≈ 0.5, while vectors of different clusters are near-orthogonal.
 * Queries are drawn the same way. Everything comes from a seeded PRNG (Mulberry32).
 */

/** Mulberry32: a small seeded PRNG. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normalise(v) {
  let norm = 0;
  for (let i = 0; i < v.length; i += 1) norm += v[i] * v[i];
  const s = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i += 1) v[i] *= s;
}

/** `{ vectors, queries }`: `rows` and `queryCount` unit vectors of `dims` dimensions, back to back. */
export function clusteredData({ rows, queryCount, dims, centres, noise, seed }) {
  const random = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const middle = new Float32Array(centres * dims);
  for (let c = 0; c < centres; c += 1) {
    for (let i = 0; i < dims; i += 1) middle[c * dims + i] = gauss();
    normalise(middle.subarray(c * dims, (c + 1) * dims));
  }
  const scale = noise / Math.sqrt(dims);
  const draw = (count) => {
    const out = new Float32Array(count * dims);
    for (let r = 0; r < count; r += 1) {
      const c = Math.floor(random() * centres);
      for (let i = 0; i < dims; i += 1) out[r * dims + i] = middle[c * dims + i] + scale * gauss();
      normalise(out.subarray(r * dims, (r + 1) * dims));
    }
    return out;
  };
  return { vectors: draw(rows), queries: draw(queryCount) };
}

/** Exact top-k row ids of every query (the ground truth for recall), by a plain full scan. */
export function exactTopK(vectors, queries, dims, k) {
  const rows = vectors.length / dims;
  const out = [];
  for (let q = 0; q < queries.length / dims; q += 1) {
    const query = queries.subarray(q * dims, (q + 1) * dims);
    const best = [];
    for (let r = 0; r < rows; r += 1) {
      let s = 0;
      for (let i = 0, b = r * dims; i < dims; i += 1) s += vectors[b + i] * query[i];
      if (best.length === k && s <= best[k - 1].s) continue;
      best.push({ r, s });
      best.sort((x, y) => y.s - x.s);
      if (best.length > k) best.pop();
    }
    out.push(best.map((x) => x.r));
  }
  return out;
}

/** Mean share of each query's exact top-k found in `found` (row ids per query). */
export function recallAt(found, truth) {
  let total = 0;
  found.forEach((ids, q) => {
    const expected = new Set(truth[q]);
    total += ids.filter((id) => expected.has(id)).length / truth[q].length;
  });
  return total / found.length;
}
