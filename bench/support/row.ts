import { median } from './stats.js';

/** A ratio target: `min` means ratio ≥ value, `max` means ratio ≤ value. */
export interface Target {
  kind: 'min' | 'max';
  value: number;
}

/** One line of the ratio table: toolkit against its baseline, measured in the same run. */
export interface Row {
  /** Stable key, e.g. `json-route` (other rows name it in {@link Row.decomposedBy}). */
  id: string;
  /** What is compared, e.g. `JSON POST /echo: @Route vs Nest @Body()`. */
  name: string;
  /** Unit of the two measured values, e.g. `req/s`, `events/s`, `ms`. */
  unit: string;
  /** Per-round values of the toolkit side. */
  toolkit: number[];
  /** Per-round values of the baseline side. */
  baseline: number[];
  /**
   * Per-round CPU microseconds per request/op (the server process for HTTP rows, the worker
   * process for memory and TestClient rows), toolkit then baseline: a cross-check of the
   * throughput ratio that other load barely moves.
   */
  cpu?: { toolkit: number[]; baseline: number[] };
  /** The goal the issue sets as a ratio; none for context rows. */
  target?: Target;
  /** An absolute goal: the toolkit side's median must be at most this, in {@link Row.unit}. */
  limit?: number;
  /**
   * Ids of context rows measured in the same run whose CPU differences split this row's into
   * parts (e.g. `json-interceptor`: what one no-op Nest interceptor costs). Printed with the
   * row's own CPU figures when it misses its target.
   */
  decomposedBy?: readonly string[];
  /**
   * The ratio is the median of the per-round ratios (each round measures both sides back to back)
   * instead of the ratio of the medians: for two runs of the same app, where drift between rounds
   * can be larger than the difference measured. @default false
   */
  paired?: boolean;
  /** What this run observed beside the numbers (e.g. spans exported), printed under the table. */
  evidence?: string;
}

/** What one unit of a row counts, for "µs per …": `req/s` → `request`, `events/s` → `event`. */
export function perWhat(unit: string): string {
  const counted: Record<string, string> = {
    'req/s': 'request',
    'events/s': 'event',
    'ops/s': 'op',
  };
  return counted[unit] ?? unit;
}

/** toolkit ÷ baseline of each round, in round order. */
export function roundRatios(toolkit: readonly number[], baseline: readonly number[]): number[] {
  return toolkit.map((value, round) => value / baseline[round]);
}

/** toolkit ÷ baseline of the medians, or the median of the round ratios for a paired row. */
export function ratioOf(row: Row): number {
  if (row.paired) return median(roundRatios(row.toolkit, row.baseline));
  return median(row.toolkit) / median(row.baseline);
}

/** baseline CPU ÷ toolkit CPU per request (same direction as a throughput ratio), if measured. */
export function cpuRatioOf(row: Row): number | undefined {
  if (!row.cpu) return undefined;
  if (row.paired) return median(roundRatios(row.cpu.baseline, row.cpu.toolkit));
  return median(row.cpu.baseline) / median(row.cpu.toolkit);
}

/** True/false when the row has a target, undefined for context rows. */
export function targetMet(row: Row): boolean | undefined {
  if (!row.target && row.limit === undefined) return undefined;
  const ratio = ratioOf(row);
  const ratioMet =
    !row.target ||
    (row.target.kind === 'min' ? ratio >= row.target.value : ratio <= row.target.value);
  return ratioMet && (row.limit === undefined || median(row.toolkit) <= row.limit);
}

/** `≥ 0.95×` / `≤ 1.5×` / `≤ 1000 ms` / `context`. */
export function describeTarget(target: Target | undefined, row?: Row): string {
  const parts = [
    ...(target ? [`${target.kind === 'min' ? '≥' : '≤'} ${target.value}×`] : []),
    ...(row?.limit !== undefined ? [`≤ ${row.limit} ${row.unit}`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'context';
}
