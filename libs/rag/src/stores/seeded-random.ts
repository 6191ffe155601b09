/**
 * A small seeded pseudo-random generator (Mulberry32): the same seed gives the same sequence,
 * so index training is reproducible. Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct integers from [0, total), in random order (partial Fisher–Yates). */
export function sampleIndices(total: number, count: number, random: () => number): Int32Array {
  const size = Math.min(count, total);
  const pool = new Int32Array(total);
  for (let i = 0; i < total; i += 1) pool[i] = i;
  for (let i = 0; i < size; i += 1) {
    const j = i + Math.floor(random() * (total - i));
    const swap = pool[i];
    pool[i] = pool[j];
    pool[j] = swap;
  }
  return pool.slice(0, size);
}
