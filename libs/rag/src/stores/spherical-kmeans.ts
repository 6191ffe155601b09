import { nearestCentroids } from './nearest-centroid.js';
import { sampleIndices, seededRandom } from './seeded-random.js';

/** Settings of {@link sphericalKMeans}. */
export interface KMeansOptions {
  /** Number of centroids to find. */
  lists: number;
  /** Most assignment + update rounds. @default 8 */
  iterations?: number;
  /** Stops early once fewer than this share of rows change list in a round. @default 0.005 */
  tolerance?: number;
  /** Seed of the initial centroid choice (same seed, same result). @default 1 */
  seed?: number;
  /** Called between slices of work (e.g. to yield to the event loop or to abort by throwing). */
  pause?: () => Promise<void>;
}

/** Rows assigned between two `pause` calls: a few tens of milliseconds of work. */
export const SLICE_ROWS = 512;

/**
 * Spherical k-means on `rows` unit vectors stored back to back in `data`: centroids are unit
 * vectors, a row belongs to the centroid with the highest dot product, and each round moves a
 * centroid to the normalised sum of its rows. Starts from k-means++ seeds (see
 * {@link seedCentroids}); a centroid left without rows is moved onto a random row. Returns `lists × dimensions` unit centroids.
 */
export async function sphericalKMeans(
  data: Float32Array,
  rows: number,
  dimensions: number,
  options: KMeansOptions,
): Promise<Float32Array> {
  const lists = Math.max(1, Math.min(options.lists, rows));
  const random = seededRandom(options.seed ?? 1);
  const centroids = seedCentroids(data, rows, dimensions, lists, random);
  const assigned = new Int32Array(rows).fill(-1);
  const slice = new Int32Array(SLICE_ROWS);
  const iterations = options.iterations ?? 8;
  for (let round = 0; round < iterations; round += 1) {
    let changed = 0;
    for (let from = 0; from < rows; from += SLICE_ROWS) {
      const to = Math.min(rows, from + SLICE_ROWS);
      nearestCentroids(data, from, to, dimensions, centroids, slice);
      for (let row = from; row < to; row += 1) {
        if (assigned[row] !== slice[row - from]) changed += 1;
        assigned[row] = slice[row - from];
      }
      await options.pause?.();
    }
    updateCentroids(data, rows, dimensions, assigned, centroids, random);
    if (changed <= (options.tolerance ?? 0.005) * rows) break;
  }
  return centroids;
}

/** Candidate rows per centroid for the k-means++ seeding: enough to cover every cluster. */
const SEED_CANDIDATES = 8;

/**
 * k-means++ seeding on a random subset of `SEED_CANDIDATES × lists` rows: each next seed is a
 * row drawn with probability proportional to its squared distance (2 − 2·cosine) to the nearest
 * seed so far, so seeds spread over all clusters instead of piling up in the largest ones.
 */
function seedCentroids(
  data: Float32Array,
  rows: number,
  dimensions: number,
  lists: number,
  random: () => number,
): Float32Array {
  const candidates = sampleIndices(rows, SEED_CANDIDATES * lists, random);
  const centroids = new Float32Array(lists * dimensions);
  const distance = new Float64Array(candidates.length).fill(Infinity);
  let chosen = candidates[0];
  for (let list = 0; list < lists; list += 1) {
    const seed = data.subarray(chosen * dimensions, (chosen + 1) * dimensions);
    centroids.set(seed, list * dimensions);
    let total = 0;
    for (let i = 0; i < candidates.length; i += 1) {
      const at = candidates[i] * dimensions;
      let dot = 0;
      for (let j = 0; j < dimensions; j += 1) dot += data[at + j] * seed[j];
      const d2 = Math.max(0, 2 - 2 * dot);
      if (d2 < distance[i]) distance[i] = d2;
      total += distance[i];
    }
    let target = random() * total;
    chosen = candidates[candidates.length - 1];
    for (let i = 0; i < candidates.length; i += 1) {
      target -= distance[i];
      if (target < 0) {
        chosen = candidates[i];
        break;
      }
    }
  }
  return centroids;
}

function updateCentroids(
  data: Float32Array,
  rows: number,
  dimensions: number,
  assigned: Int32Array,
  centroids: Float32Array,
  random: () => number,
): void {
  const lists = centroids.length / dimensions;
  const sums = new Float64Array(lists * dimensions);
  const counts = new Int32Array(lists);
  for (let row = 0; row < rows; row += 1) {
    const list = assigned[row];
    counts[list] += 1;
    const at = list * dimensions;
    const from = row * dimensions;
    for (let i = 0; i < dimensions; i += 1) sums[at + i] += data[from + i];
  }
  for (let list = 0; list < lists; list += 1) {
    const at = list * dimensions;
    let norm = 0;
    for (let i = 0; i < dimensions; i += 1) norm += sums[at + i] * sums[at + i];
    if (counts[list] === 0 || norm === 0) {
      const row = Math.floor(random() * rows);
      centroids.set(data.subarray(row * dimensions, (row + 1) * dimensions), at);
      continue;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i += 1) centroids[at + i] = sums[at + i] * scale;
  }
}
