/**
 * Runs `task(i)` for i = 0..count-1 with at most `concurrency` in flight; resolves with every
 * result in order. A rejection is kept as the result (the caller counts errors), never thrown.
 */
export async function runPool<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<(T | Error)[]> {
  const results: (T | Error)[] = new Array<T | Error>(count);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const index = next;
      next += 1;
      try {
        results[index] = await task(index);
      } catch (error) {
        results[index] = error instanceof Error ? error : new Error(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return results;
}
