import { lazyModule } from '../support/lazy-module.js';

/** The `pg` module, required on first use. */
export const loadPg = lazyModule<typeof import('pg')>('pg');

/** The `ioredis` module, required on first use. */
export const loadIoredis = lazyModule<typeof import('ioredis')>('ioredis');
