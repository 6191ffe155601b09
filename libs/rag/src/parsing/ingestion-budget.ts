/**
 * What one file may cost to parse (load its text and cut it into chunks). Parsing runs in
 * worker threads (`ParserPool`), so a file at its budget never stalls the app's other requests;
 * a file over it is stopped and answered with a 422 naming the budget.
 *
 * @example
 * { timeoutMs: 60_000, memoryMb: 1024, workers: 2 }
 */
export interface IngestionBudget {
  /**
   * Longest a file may take to parse, in milliseconds (a real 261-page PDF took 13–26 s on a
   * busy 2-core machine). @default 60000
   */
  timeoutMs?: number;
  /** Largest JavaScript heap one parse may use, in MiB (the worker's old generation). @default 512 */
  memoryMb?: number;
  /** Files parsed at the same time (worker threads). @default 1 */
  workers?: number;
  /** Files that may wait for a worker; more → 503, retry later. @default 64 */
  maxQueued?: number;
  /** An idle worker is stopped after this long, in milliseconds. @default 10000 */
  idleMs?: number;
}

/** {@link IngestionBudget} with the defaults filled in. */
export type ResolvedIngestionBudget = Required<IngestionBudget>;

/** The defaults of {@link IngestionBudget}. */
export const DEFAULT_INGESTION_BUDGET: ResolvedIngestionBudget = {
  timeoutMs: 60_000,
  memoryMb: 512,
  workers: 1,
  maxQueued: 64,
  idleMs: 10_000,
};

/** The budget with defaults filled in; a value that is not a positive number is refused. */
export function resolveIngestionBudget(budget: IngestionBudget = {}): ResolvedIngestionBudget {
  const resolved = { ...DEFAULT_INGESTION_BUDGET };
  for (const key of Object.keys(resolved) as (keyof ResolvedIngestionBudget)[]) {
    const value = budget[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new RangeError(
        `ingestion budget ${key} must be a positive number (got ${String(value)})`,
      );
    }
    resolved[key] = key === 'timeoutMs' || key === 'idleMs' ? value : Math.ceil(value);
  }
  return resolved;
}

/** `30s`, `1.5s`, `250ms`: a time limit for messages. */
export function formatMilliseconds(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))}s` : `${ms}ms`;
}
