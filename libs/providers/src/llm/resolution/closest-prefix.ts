/** Edit distance counting a swap of two neighbours as one edit (`gtp` → `gpt` is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2][j - 2] + 1);
      }
      d[i][j] = best;
    }
  }
  return d[a.length][b.length];
}

/**
 * The known prefix a mistyped model name most likely meant (`gtp-4o` → `gpt-`), or undefined
 * when nothing is close. Compares each prefix with the name's start, allowing one character
 * more or less so insertions and deletions count too.
 */
export function closestPrefix(name: string, prefixes: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { prefix: string; distance: number } | undefined;
  for (const prefix of prefixes) {
    if (prefix.length < 2) continue;
    const allowed = Math.min(2, Math.floor(prefix.length / 3));
    for (const len of [prefix.length - 1, prefix.length, prefix.length + 1]) {
      if (len <= 0 || len > lower.length) continue;
      const distance = editDistance(prefix, lower.slice(0, len));
      if (distance === 0 || distance > allowed) continue;
      const better =
        !best ||
        distance < best.distance ||
        (distance === best.distance && prefix.length > best.prefix.length);
      if (better) best = { prefix, distance };
    }
  }
  return best?.prefix;
}
