/**
 * A lock on one cache key across every process sharing the backend (see `CacheStore.lock`):
 * held until released or until its time to live runs out without a refresh, so a holder that
 * dies frees it by itself.
 */
export interface CacheLock {
  /** Extends the lock by its time to live again; false when it was lost (expired, taken over). */
  refresh(): Promise<boolean>;
  /** Frees the lock if this holder still has it. */
  release(): Promise<void>;
}
