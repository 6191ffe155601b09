import { createRequire } from 'node:module';

const requireFromToolkit = createRequire(import.meta.url);

/**
 * A loader for a CommonJS dependency that is required the first time it is called, not when
 * toolkit is imported: backend clients (ioredis, pg) and parsers (busboy) cost start-up time
 * only in apps that use them.
 *
 * @example
 * const loadPg = lazyModule<typeof import('pg')>('pg');
 * const pool = new (loadPg().Pool)({ connectionString });
 */
export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireFromToolkit(name) as T;
    return loaded;
  };
}
