/** How long and how hard each benchmark runs; every knob is an environment variable. */
export interface BenchSettings {
  /** Seconds per measured autocannon run or ops loop. @default 10 (`BENCH_DURATION`) */
  duration: number;
  /** Rounds per comparison; the median is reported. @default 3 (`BENCH_ROUNDS`) */
  rounds: number;
  /** Concurrent HTTP connections. @default 50 (`BENCH_CONNECTIONS`) */
  connections: number;
  /** Seconds of unmeasured load before the first round. @default 2 (`BENCH_WARMUP`) */
  warmup: number;
  /** Process spawns per CLI start-up measurement. @default 20 (`BENCH_CLI_RUNS`) */
  cliRuns: number;
  /** Concurrent loops in the memory-backend and TestClient workers. @default 8 (`BENCH_OPS_CONCURRENCY`) */
  opsConcurrency: number;
  /** Suites to run, comma-separated (json, sse, cache, memory, cli, start, testclient, platform, rag, ingest, telemetry). @default all (`BENCH_ONLY`) */
  only: readonly string[];
  /** Redis for the Redis rows. @default redis://127.0.0.1:6379 (`BENCH_REDIS_URL`) */
  redisUrl: string;
  /** PostgreSQL for the PostgreSQL row. @default postgres://postgres@127.0.0.1:5432/test (`BENCH_POSTGRES_URL`) */
  postgresUrl: string;
  /**
   * Run on a tree with uncommitted changes; the results file is then named `…-dirty.md` and
   * says so. @default false (`BENCH_ALLOW_DIRTY=1` to allow)
   */
  allowDirty: boolean;
  /**
   * A word put in the results file's name before the commit (`<date>-<label>-<sha>.md`), for a
   * run of one suite. @default none (`BENCH_LABEL`, lowercase letters, digits and dashes)
   */
  label: string | undefined;
}

export const SUITES = [
  'json',
  'sse',
  'cache',
  'memory',
  'cli',
  'start',
  'testclient',
  'rag',
  'platform',
  'ingest',
  'telemetry',
] as const;

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/**
 * Reads the settings from the environment.
 *
 * @example
 * BENCH_DURATION=2 BENCH_ROUNDS=1 npm run bench   # a quick run
 */
export function readSettings(): BenchSettings {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of only) {
    if (!(SUITES as readonly string[]).includes(name)) {
      throw new Error(`BENCH_ONLY: unknown suite "${name}" (use ${SUITES.join(', ')})`);
    }
  }
  const label = process.env.BENCH_LABEL || undefined;
  if (label !== undefined && !/^[a-z0-9-]+$/.test(label)) {
    throw new Error(`BENCH_LABEL must be lowercase letters, digits and dashes (got ${label})`);
  }
  return {
    duration: positive('BENCH_DURATION', 10),
    rounds: Math.round(positive('BENCH_ROUNDS', 3)),
    connections: Math.round(positive('BENCH_CONNECTIONS', 50)),
    warmup: positive('BENCH_WARMUP', 2),
    cliRuns: Math.round(positive('BENCH_CLI_RUNS', 20)),
    opsConcurrency: Math.round(positive('BENCH_OPS_CONCURRENCY', 8)),
    only: only.length > 0 ? only : SUITES,
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    allowDirty: process.env.BENCH_ALLOW_DIRTY === '1',
    label,
  };
}
