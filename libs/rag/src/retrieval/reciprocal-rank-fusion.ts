/** An id with its fused score. */
export interface FusedMatch {
  id: string;
  score: number;
}

/**
 * Reciprocal rank fusion: merges ranked lists of ids (e.g. BM25 and vector results) by summing
 * `1 / (k + rank)` over the lists each id appears in (rank from 1). Robust to scores on
 * different scales, because it only uses ranks. Ties keep the order of first appearance.
 *
 * @param k damping constant; 60 is the value from the original paper (Cormack et al., 2009).
 * @example
 * reciprocalRankFusion([['a', 'b'], ['b', 'c']]); // [{ id: 'b', … }, { id: 'a', … }, { id: 'c', … }]
 */
export function reciprocalRankFusion(lists: readonly (readonly string[])[], k = 60): FusedMatch[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
