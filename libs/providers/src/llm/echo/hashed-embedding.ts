/** 32-bit FNV-1a hash of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Lower-cased words (letters and digits of any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A deterministic, offline embedding: a hashed bag of words, L2-normalised. The same text always
 * gives the same vector; texts sharing words point the same way (cosine similarity grows with
 * the overlap), unrelated texts are close to orthogonal. Not semantic, but enough for offline
 * retrieval and for tests. An empty text gives the zero vector.
 *
 * @param dimensions - Vector length. @default 64
 * @example
 * hashedEmbedding('The cat sat').length; // 64
 */
export function hashedEmbedding(text: string, dimensions = 64): number[] {
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new RangeError(`dimensions must be a positive integer (got ${dimensions})`);
  }
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of words(text)) {
    const hash = fnv1a(word);
    // A hashed sign keeps unrelated words from all pulling in the same direction.
    vector[hash % dimensions] += (hash >>> 31) & 1 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm === 0 ? vector : vector.map((v) => v / norm);
}
