import { FolderGoneError, IngestionQueue } from '../../../../libs/rag/src/index.js';
import { IngestTally } from './ingest-summary.js';

/** Options of {@link ingestThroughQueue}. */
export interface QueueIngestOptions {
  /** The folder as the user named it (shown) and its absolute path (queued). */
  folder: string;
  path: string;
  redisUrl: string;
  queue: string;
  /** Follow the jobs until they are all done or failed. */
  wait: boolean;
  /** Called once when jobs are pending and no worker has been connected for `idleMs`. */
  onNoWorker?: () => void;
  idleMs?: number;
  /** Called when the connection to Redis drops (once per outage) and when it is back. */
  onConnectionLost?: (reason: string) => void;
  onConnectionRestored?: () => void;
  /** Called about every `pollMs` while waiting. */
  onProgress?: (tally: IngestTally) => void;
  pollMs?: number;
}

/** What {@link ingestThroughQueue} did: the tally (complete when waited for) and what it queued. */
export interface QueueIngestResult {
  tally: IngestTally;
  queued: number;
  known: number;
}

/**
 * Queues every file of the folder (a file already queued in the same state is not queued again)
 * and, with `wait`, follows exactly those jobs until each is done or failed. While Redis is
 * away it waits for it (the jobs stay queued) and goes on once it is back.
 */
export async function ingestThroughQueue(options: QueueIngestOptions): Promise<QueueIngestResult> {
  const queue = new IngestionQueue({
    redisUrl: options.redisUrl,
    name: options.queue,
    onConnectionLost: options.onConnectionLost,
    onConnectionRestored: options.onConnectionRestored,
  });
  try {
    const report = await queue.enqueueFolderJobs(options.path).catch((error: unknown) => {
      // Named as the user named it.
      throw error instanceof FolderGoneError
        ? new FolderGoneError(options.folder, error.when)
        : error;
    });
    const tally = new IngestTally('queue', options.folder, report.files);
    const result = { tally, queued: report.queued, known: report.known };
    if (!options.wait) return result;
    // Jobs that had already run before this command count as unchanged: it added nothing.
    let pending = [...report.queuedIds];
    for (const state of await queue.jobStates(report.knownIds)) {
      if (state.state === 'completed') tally.unchanged += 1;
      else if (state.state === 'failed') tally.failed(state.file, state.reason);
      else pending.push(state.id);
      if (state.state === 'completed' || state.state === 'failed') tally.alreadyDone += 1;
    }
    const idleSince = Date.now();
    let lookedForWorkers = false;
    while (pending.length > 0) {
      options.onProgress?.(tally);
      const idle = Date.now() - idleSince >= (options.idleMs ?? 3000);
      if (!lookedForWorkers && idle && tally.done === tally.alreadyDone) {
        lookedForWorkers = true;
        // -1 when the server refuses CLIENT LIST: then nothing is said.
        if ((await queue.workerCount().catch(() => -1)) === 0) options.onNoWorker?.();
      }
      await new Promise((done) => setTimeout(done, options.pollMs ?? 300));
      const still: string[] = [];
      for (const state of await queue.jobStates(pending)) {
        if (state.state === 'completed') tally.completed(state.outcome);
        else if (state.state === 'failed') tally.failed(state.file, state.reason);
        else if (state.state === 'missing')
          tally.failed(state.id, 'its job was removed from the queue before it finished');
        else still.push(state.id);
      }
      pending = still;
    }
    options.onProgress?.(tally);
    return result;
  } finally {
    await queue.close();
  }
}
