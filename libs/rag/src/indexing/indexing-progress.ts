/** Progress of indexing a folder, as passed to an {@link IndexLogger}. */
export interface IndexingProgress {
  /** Files looked at so far / in total. */
  filesDone: number;
  filesTotal: number;
  /** Files embedded and stored in this run. */
  filesIndexed: number;
  /** Files skipped because they were unchanged or already indexed. */
  filesUnchanged: number;
  /** Files that could not be read (unsupported, corrupt, …). */
  filesFailed: number;
  /** Chunks embedded in this run. */
  chunks: number;
  elapsedMs: number;
  filesPerSecond: number;
  chunksPerSecond: number;
  /** True for the last report of a run. */
  done: boolean;
}

/**
 * Receives indexing progress: a one-line message and the numbers behind it. Wire it to any
 * logger, e.g. `(message) => new Logger('RAG').log(message)`.
 */
export type IndexLogger = (message: string, progress: IndexingProgress) => void;

/** Counts a folder run and reports every `everyFiles` files or `everyMs`, and at the end. */
export class ProgressTracker {
  private readonly started = Date.now();
  private lastReport = this.started;
  private readonly state = {
    filesDone: 0,
    filesIndexed: 0,
    filesUnchanged: 0,
    filesFailed: 0,
    chunks: 0,
  };

  constructor(
    private readonly filesTotal: number,
    private readonly logger: IndexLogger | undefined,
    private readonly everyFiles = 25,
    private readonly everyMs = 2000,
  ) {}

  /** Records one finished file. */
  file(outcome: 'indexed' | 'unchanged' | 'failed', chunks = 0): void {
    this.state.filesDone += 1;
    if (outcome === 'indexed') this.state.filesIndexed += 1;
    else if (outcome === 'unchanged') this.state.filesUnchanged += 1;
    else this.state.filesFailed += 1;
    this.state.chunks += chunks;
    const now = Date.now();
    if (this.state.filesDone % this.everyFiles === 0 || now - this.lastReport >= this.everyMs) {
      this.lastReport = now;
      this.report(false);
    }
  }

  /** The numbers so far, without reporting them. */
  snapshot(): IndexingProgress {
    return this.progress(false);
  }

  /** Reports the final numbers and returns them. */
  finish(): IndexingProgress {
    return this.report(true);
  }

  private progress(done: boolean): IndexingProgress {
    const elapsedMs = Date.now() - this.started;
    const seconds = Math.max(elapsedMs, 1) / 1000;
    return {
      ...this.state,
      filesTotal: this.filesTotal,
      elapsedMs,
      filesPerSecond: this.state.filesDone / seconds,
      chunksPerSecond: this.state.chunks / seconds,
      done,
    };
  }

  private report(done: boolean): IndexingProgress {
    const progress = this.progress(done);
    const elapsedMs = progress.elapsedMs;
    const { filesDone, filesIndexed, filesUnchanged, filesFailed, chunks } = progress;
    const message =
      `${done ? 'Indexed' : 'Indexing'} ${filesDone}/${this.filesTotal} files ` +
      `(${filesIndexed} new, ${filesUnchanged} unchanged, ${filesFailed} failed), ${chunks} chunks ` +
      `in ${(elapsedMs / 1000).toFixed(1)} s: ${progress.filesPerSecond.toFixed(1)} files/s, ` +
      `${progress.chunksPerSecond.toFixed(0)} chunks/s`;
    this.logger?.(message, progress);
    return progress;
  }
}
