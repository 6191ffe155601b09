import type { IngestionOutcome } from '../../../../libs/rag/src/index.js';

/** How `toolkit ingest` ran: jobs on a Redis queue, or in this process. */
export type IngestMode = 'queue' | 'in-process';

/** What `toolkit ingest` did, as printed (and as `--json` prints it). */
export interface IngestSummary {
  mode: IngestMode;
  folder: string;
  files: number;
  /** Files whose content was indexed now. */
  added: number;
  /** Files whose content was already indexed (or whose job had already run). */
  unchanged: number;
  failed: number;
  failures: { file: string; reason: string }[];
  seconds: number;
  /** Files processed in this run per second (files already done before it do not count). */
  documentsPerSecond: number;
}

/** Counts outcomes as they come in; a run's progress and, at the end, its summary. */
export class IngestTally {
  private readonly started = performance.now();
  added = 0;
  unchanged = 0;
  /** Files found done before this run (not counted in the rate). */
  alreadyDone = 0;
  readonly failures: { file: string; reason: string }[] = [];

  constructor(
    readonly mode: IngestMode,
    readonly folder: string,
    readonly files: number,
  ) {}

  get done(): number {
    return this.added + this.unchanged + this.failures.length;
  }

  completed(outcome: Pick<IngestionOutcome, 'created'>): void {
    if (outcome.created) this.added += 1;
    else this.unchanged += 1;
  }

  failed(file: string, reason: string): void {
    this.failures.push({ file, reason: reason.split('\n')[0] ?? reason });
  }

  seconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  rate(): number {
    const seconds = Math.max(this.seconds(), 0.001);
    return (this.done - this.alreadyDone) / seconds;
  }

  summary(): IngestSummary {
    return {
      mode: this.mode,
      folder: this.folder,
      files: this.files,
      added: this.added,
      unchanged: this.unchanged,
      failed: this.failures.length,
      failures: [...this.failures].sort((a, b) => a.file.localeCompare(b.file)),
      seconds: Number(this.seconds().toFixed(3)),
      documentsPerSecond: Number(this.rate().toFixed(1)),
    };
  }
}

/** The summary as lines: totals, then one line per failed file. */
export function formatSummary(summary: IngestSummary): string[] {
  const how = summary.mode === 'queue' ? 'through the queue' : 'in this process';
  const lines = [
    `Ingested ${summary.files} files from ${summary.folder} ${how} in ${summary.seconds.toFixed(1)} s: ` +
      `${summary.added} added, ${summary.unchanged} unchanged, ${summary.failed} failed ` +
      `(${summary.documentsPerSecond.toFixed(1)} documents/s)`,
  ];
  for (const failure of summary.failures)
    lines.push(`  failed: ${failure.file}: ${failure.reason}`);
  return lines;
}

/** One progress line: a bar on a terminal, counts otherwise. */
export function progressLine(tally: IngestTally, bar: boolean): string {
  const counts =
    `${tally.done}/${tally.files} files (${tally.added} added, ${tally.unchanged} unchanged, ` +
    `${tally.failures.length} failed), ${tally.rate().toFixed(1)} documents/s`;
  if (!bar) return `Ingesting: ${counts}`;
  const width = 24;
  const filled = tally.files === 0 ? width : Math.round((tally.done / tally.files) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts}`;
}
