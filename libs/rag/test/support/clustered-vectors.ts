import { seededRandom } from '../../src/stores/seeded-random.js';

/** Shape of generated embedding-like data. */
export interface ClusterSpec {
  dimensions: number;
  /** Number of cluster centres (random unit vectors). */
  centres: number;
  /** Length of the Gaussian noise added to a centre before normalising (1 ≈ cosine 0.7 to it). */
  noise: number;
  seed: number;
}

/**
 * A seeded source of unit vectors scattered around random centres, like sentence embeddings
 * of texts on a number of topics: `next(rows)` returns `rows` vectors back to back.
 */
export function clusteredVectors(spec: ClusterSpec): { next(rows: number): Float32Array } {
  const random = seededRandom(spec.seed);
  const gauss = () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const d = spec.dimensions;
  const centres = new Float32Array(spec.centres * d);
  for (let c = 0; c < spec.centres; c += 1) {
    for (let i = 0; i < d; i += 1) centres[c * d + i] = gauss();
    normalise(centres.subarray(c * d, (c + 1) * d));
  }
  const scale = spec.noise / Math.sqrt(d);
  return {
    next(rows: number): Float32Array {
      const out = new Float32Array(rows * d);
      for (let r = 0; r < rows; r += 1) {
        const c = Math.floor(random() * spec.centres);
        for (let i = 0; i < d; i += 1) out[r * d + i] = centres[c * d + i] + scale * gauss();
        normalise(out.subarray(r * d, (r + 1) * d));
      }
      return out;
    },
  };
}

function normalise(v: Float32Array): void {
  let norm = 0;
  for (const x of v) norm += x * x;
  const s = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i += 1) v[i] *= s;
}
