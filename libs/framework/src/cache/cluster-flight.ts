import { setTimeout as sleep } from 'node:timers/promises';
import type { CacheLock } from '../../../providers/src/index.js';

/** What one flight gave: the value, and whether it came from the cache rather than this run. */
export interface FlightOutcome {
  readonly value: unknown;
  readonly hit: boolean;
}

/** How a cluster-wide flight reaches the shared cache. */
export interface ClusterFlightSteps {
  /** Takes the key's lock (see `CacheStore.lock`), or `undefined` when another process has it. */
  lock(): Promise<CacheLock | undefined>;
  /** The value another process stored, if any. */
  read(): Promise<{ value: unknown } | undefined>;
  /** Runs the handler and stores a successful result. */
  run(): Promise<unknown>;
}

/** Longest wait for another process's result before running uncached anyway. */
const MAX_WAIT_MS = 120_000;
/** First and longest pause between two looks at the cache while another process runs. */
const FIRST_POLL_MS = 20;
const LONGEST_POLL_MS = 200;

/**
 * Single-flight across processes: the process that takes the key's lock runs the handler (its
 * lock refreshed every third of `lockTtlSeconds` while it runs); the others look at the cache
 * until the value lands (a HIT for them) or the lock is free again — released without a
 * cacheable result, or expired because its holder died — and then one of them takes over. A
 * backend that fails while locking never blocks the request: it runs uncached.
 */
export async function clusterFlight(
  steps: ClusterFlightSteps,
  lockTtlSeconds: number,
): Promise<FlightOutcome> {
  const deadline = Date.now() + MAX_WAIT_MS;
  let pause = FIRST_POLL_MS;
  for (;;) {
    let lock: CacheLock | undefined;
    try {
      lock = await steps.lock();
    } catch {
      return { value: await steps.run(), hit: false };
    }
    if (lock) return holding(lock, steps, lockTtlSeconds);
    await sleep(pause);
    pause = Math.min(pause * 2, LONGEST_POLL_MS);
    const landed = await steps.read();
    if (landed) return { value: landed.value, hit: true };
    if (Date.now() > deadline) return { value: await steps.run(), hit: false };
  }
}

async function holding(
  lock: CacheLock,
  steps: ClusterFlightSteps,
  lockTtlSeconds: number,
): Promise<FlightOutcome> {
  const keepAlive = setInterval(
    () => void lock.refresh().catch(() => false),
    (lockTtlSeconds * 1000) / 3,
  );
  keepAlive.unref();
  try {
    // The previous holder may have stored the value just before it let go.
    const landed = await steps.read();
    if (landed) return { value: landed.value, hit: true };
    return { value: await steps.run(), hit: false };
  } finally {
    clearInterval(keepAlive);
    await lock.release().catch(() => undefined);
  }
}
