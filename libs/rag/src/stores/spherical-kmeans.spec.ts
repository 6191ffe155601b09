import { describe, expect, it } from '@jest/globals';
import { clusteredVectors } from '../../test/support/clustered-vectors.js';
import { nearestCentroids } from './nearest-centroid.js';
import { sphericalKMeans } from './spherical-kmeans.js';

const D = 32;

function dot(a: Float32Array, b: Float32Array): number {
  return a.reduce((s, x, i) => s + x * b[i], 0);
}

describe('sphericalKMeans', () => {
  it('finds well-separated clusters as unit centroids, the same for the same seed', async () => {
    const data = clusteredVectors({ dimensions: D, centres: 6, noise: 0.3, seed: 3 }).next(1200);
    const centroids = await sphericalKMeans(data, 1200, D, { lists: 6, seed: 9 });
    const rows = (list: number) => centroids.subarray(list * D, (list + 1) * D);
    for (let list = 0; list < 6; list += 1) expect(dot(rows(list), rows(list))).toBeCloseTo(1, 4);
    // Every row sits close to its centroid: each cluster got a centroid of its own.
    const assigned = new Int32Array(1200);
    const total = nearestCentroids(data, 0, 1200, D, centroids, assigned);
    expect(total / 1200).toBeGreaterThan(0.9);
    expect(new Set(assigned).size).toBe(6);
    expect(await sphericalKMeans(data, 1200, D, { lists: 6, seed: 9 })).toEqual(centroids);
  });

  it('returns at most one centroid per row and pauses between slices', async () => {
    const data = clusteredVectors({ dimensions: D, centres: 2, noise: 0.5, seed: 4 }).next(5);
    let pauses = 0;
    const centroids = await sphericalKMeans(data, 5, D, {
      lists: 50,
      pause: async () => {
        pauses += 1;
      },
    });
    expect(centroids.length).toBe(5 * D);
    expect(pauses).toBeGreaterThan(0);
  });
});

describe('nearestCentroids', () => {
  it('agrees with a plain argmax for odd row and list counts', () => {
    const source = clusteredVectors({ dimensions: 7, centres: 5, noise: 1, seed: 5 });
    const data = source.next(13);
    const centroids = source.next(7);
    const out = new Int32Array(12);
    nearestCentroids(data, 1, 13, 7, centroids, out);
    for (let row = 1; row < 13; row += 1) {
      const x = data.subarray(row * 7, row * 7 + 7);
      let best = 0;
      for (let c = 1; c < 7; c += 1) {
        if (
          dot(x, centroids.subarray(c * 7, c * 7 + 7)) >
          dot(x, centroids.subarray(best * 7, best * 7 + 7))
        )
          best = c;
      }
      expect(out[row - 1]).toBe(best);
    }
  });
});
