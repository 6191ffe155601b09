import { ToolkitError } from '../errors/toolkit.error.js';

/**
 * Serialises a cache value, so both backends store and return exactly what JSON round-trips.
 * @throws ToolkitError when the value is not JSON-serialisable (undefined, a function, a BigInt, a cycle).
 */
export function serializeEntry(key: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ToolkitError(`Cache value for ${key} is not JSON-serialisable`, { cause: error });
  }
  if (text === undefined) {
    throw new ToolkitError(`Cache value for ${key} is not JSON-serialisable (got ${typeof value})`);
  }
  return text;
}

/** Milliseconds of a TTL, or 0 for "do not store". @throws ToolkitError when negative or not finite. */
export function ttlMilliseconds(ttlSeconds: number): number {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds < 0) {
    throw new ToolkitError(
      `Cache TTL must be a non-negative number of seconds (got ${String(ttlSeconds)})`,
    );
  }
  return Math.ceil(ttlSeconds * 1000);
}

/**
 * Checks a counter window ({@link CacheStore.increment}).
 * @throws ToolkitError unless a positive safe integer of milliseconds.
 */
export function checkWindowMs(windowMs: number): number {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new ToolkitError(
      `A counter window must be a positive whole number of milliseconds (got ${String(windowMs)})`,
    );
  }
  return windowMs;
}
