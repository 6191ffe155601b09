import type { CacheStore, MemoryStore } from '../../../providers/src/index.js';

/** One backend's line in a {@link ReadinessReport}. */
export interface BackendReadiness {
  /** Which backend serves it: `memory` (in-process), `redis` or `postgres`. */
  backend: string;
  /** `up` when it answered a ping, `down` otherwise. */
  status: 'up' | 'down';
  /** Why it is down (the 503 a request would get), without credentials. */
  error?: string;
}

/**
 * What `GET /health/ready` answers: `ready` when every configured backend answered a ping within
 * its timeout (`memory.timeout`, `cache.timeout`), else `unavailable` (sent with status 503).
 *
 * @example
 * { "status": "ready", "backends": { "memory": { "backend": "redis", "status": "up" } } }
 */
export interface ReadinessReport {
  /** `ready`, or `unavailable` while a backend is down. */
  status: 'ready' | 'unavailable';
  /** Each configured backend by role: `memory`, and `cache` when `cache.enabled`. */
  backends: Record<string, BackendReadiness>;
}

async function probe(store: MemoryStore | CacheStore): Promise<BackendReadiness> {
  try {
    await store.ping();
    return { backend: store.backend, status: 'up' };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { backend: store.backend, status: 'down', error: reason };
  }
}

/**
 * Pings every configured backend at once (each bounded by its own timeout) and reports them.
 *
 * @example
 * const report = await checkReadiness({ memory: memoryStore, cache: cacheStore });
 */
export async function checkReadiness(
  stores: Record<string, MemoryStore | CacheStore | undefined>,
): Promise<ReadinessReport> {
  const entries = Object.entries(stores).filter(
    (entry): entry is [string, MemoryStore | CacheStore] => entry[1] !== undefined,
  );
  const results = await Promise.all(entries.map(([, store]) => probe(store)));
  const backends = Object.fromEntries(entries.map(([role], i) => [role, results[i]]));
  const ready = results.every((r) => r.status === 'up');
  return { status: ready ? 'ready' : 'unavailable', backends };
}
