/** How often {@link summarize} ran in this process: a cached benchmark must see exactly one run. */
let runs = 0;

/** Keeps the CPU busy for `ms` milliseconds, like rendering or parsing would. */
function work(ms: number): number {
  const end = performance.now() + ms;
  let spins = 0;
  while (performance.now() < end) spins += 1;
  return spins;
}

/**
 * The handler body both cache servers put behind their cache: 2 ms of CPU, so a request that
 * missed the cache would show in the numbers, and a count of its runs.
 */
export function summarize(text: string): { length: number; spins: number } {
  runs += 1;
  return { length: text.length, spins: work(2) };
}

/** `{ runs }` for the servers' `GET /runs`. */
export function summaryRuns(): { runs: number } {
  return { runs };
}
