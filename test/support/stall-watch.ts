/**
 * A limit on a pause in progress instead of on a total time: a loaded machine makes long work
 * longer, while work that stops moving is a hang whatever the load.
 */
export interface StallWatch {
  /** Rejects once no new count has been reported for the limit. */
  readonly stalled: Promise<never>;
  /** Reports the work's count so far; a count that differs from the last one is progress. */
  moved(count: number): void;
  /** Stops watching (call it in a `finally`). */
  stop(): void;
}

/**
 * Watches a count of work done: `stalled` rejects, naming `what`, when `moved` has not been
 * told of a new count for `limitMs`.
 */
export function stallWatch(limitMs: number, what: string): StallWatch {
  let last = -1;
  let lastAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      if (Date.now() - lastAt <= limitMs) return;
      clearInterval(timer);
      reject(new Error(`${what} made no progress for ${limitMs} ms (at ${last})`));
    }, 1000);
  });
  // A watch stopped before it fires must not leave an unhandled rejection behind.
  stalled.catch(() => undefined);
  return {
    stalled,
    moved(count: number): void {
      if (count === last) return;
      last = count;
      lastAt = Date.now();
    },
    stop: (): void => clearInterval(timer),
  };
}

/**
 * The jest time-out of a test limited by a {@link stallWatch}: long enough never to be the
 * limit that fires, so the failure names the stalled work instead of a total time.
 */
export const UNTIL_STALLED_MS = 60 * 60_000;
