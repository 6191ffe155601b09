import { cpuRatioOf, describeTarget, perWhat, type Row } from './row.js';
import { formatNumber, median } from './stats.js';

/** `+111 µs (+27.7%)`: how much more CPU per unit `row`'s toolkit side spent than its baseline. */
function cpuDifference(row: Row & { cpu: NonNullable<Row['cpu']> }): string {
  const toolkit = median(row.cpu.toolkit);
  const baseline = median(row.cpu.baseline);
  const diff = toolkit - baseline;
  const sign = diff >= 0 ? '+' : '−';
  const percent = (Math.abs(diff) / baseline) * 100;
  return `${sign}${formatNumber(Math.abs(diff), 1)} µs (${sign}${formatNumber(percent, 1)}%)`;
}

function hasCpu(row: Row): row is Row & { cpu: NonNullable<Row['cpu']> } {
  return row.cpu !== undefined && !Number.isNaN(median(row.cpu.toolkit));
}

/**
 * What this run measured about a missed target: the CPU time per request (or event, or op) of
 * both sides and their difference, whether the target holds by CPU time too, and the CPU
 * differences of the rows that decompose it ({@link Row.decomposedBy}). Built only from this
 * run's numbers; undefined when the row has no CPU measurement, so nothing is claimed.
 */
export function measuredCause(row: Row, rows: readonly Row[]): string | undefined {
  if (!hasCpu(row)) return contextOf(row, rows);
  const per = perWhat(row.unit);
  const parts = [
    `CPU per ${per} (medians of this run): toolkit ${formatNumber(median(row.cpu.toolkit), 1)} µs, ` +
      `baseline ${formatNumber(median(row.cpu.baseline), 1)} µs, a difference of ${cpuDifference(row)}.`,
  ];
  const cpuRatio = cpuRatioOf(row);
  if (row.target && cpuRatio !== undefined) {
    const met =
      row.target.kind === 'min' ? cpuRatio >= row.target.value : cpuRatio <= row.target.value;
    parts.push(
      `By CPU time the ratio is ${cpuRatio.toFixed(2)}×, so the target (${describeTarget(row.target)}) ` +
        `is ${met ? 'met by CPU time; only the throughput ratio misses it' : 'missed by CPU time too'}.`,
    );
  }
  const pieces = (row.decomposedBy ?? [])
    .map((id) => rows.find((r) => r.id === id))
    .filter((r): r is Row & { cpu: NonNullable<Row['cpu']> } => r !== undefined && hasCpu(r))
    .map((r) => `${r.name}: ${cpuDifference(r)} per ${perWhat(r.unit)}`);
  if (pieces.length > 0) parts.push(`Measured in the same run: ${pieces.join('; ')}.`);
  return parts.join(' ');
}

/** For a row without CPU figures: the medians of the context rows measured beside it. */
function contextOf(row: Row, rows: readonly Row[]): string | undefined {
  const shown = (row.decomposedBy ?? [])
    .map((id) => rows.find((r) => r.id === id))
    .filter((r): r is Row => r !== undefined)
    .map(
      (r) =>
        `${r.name}: toolkit ${formatNumber(median(r.toolkit), 1)} ${r.unit}, ` +
        `baseline ${formatNumber(median(r.baseline), 1)} ${r.unit}`,
    );
  return shown.length > 0 ? `Measured in the same run: ${shown.join('; ')}.` : undefined;
}
