import type { Job, Worker } from 'bullmq';
import type { ReadStableFileOptions } from '../indexing/read-stable-file.js';
import { bullConnection, loadBullMq, redisAddress } from './bullmq.js';
import { ingestFolderFile } from './ingest-folder-file.js';
import { PermanentIngestionError } from './permanent-ingestion.error.js';
import {
  INGESTION_QUEUE,
  type IngestionJob,
  type IngestionOutcome,
  type IngestionTarget,
} from './ingestion-job.js';
import { watchRedisConnection, type RedisConnectionEvents } from './redis-connection-watch.js';

export type { IngestionTarget } from './ingestion-job.js';

/** Options of {@link IngestionWorker.start}. */
export interface IngestionWorkerOptions extends RedisConnectionEvents {
  /** Redis URL. */
  redisUrl: string;
  /** Where files go. With several worker processes it must be shared (a pgvector store). */
  target: IngestionTarget;
  /** BullMQ queue name. @default 'toolkit-ingest' */
  name?: string;
  /** Files ingested at once by this worker. @default 4 */
  concurrency?: number;
  /**
   * How long a job stays in this worker's hands without news (its lock, renewed while it
   * runs): the files of a killed worker are taken over by another after at most this long
   * and half of it again.
   * @default 10000
   */
  lockDurationMs?: number;
  /** Told about each file ingested. */
  onCompleted?: (file: string, outcome: IngestionOutcome) => void;
  /** Told about each file that failed an attempt. */
  onFailed?: (file: string, reason: string, willRetry: boolean) => void;
  /**
   * How a file's bytes are read; the worker stats the file around it to detect changes.
   * A seam for tests (a read during which the file changes) and virtual file systems.
   * @default fs.readFile
   */
  readFile?: ReadStableFileOptions['read'];
}

/**
 * Processes the jobs of an {@link IngestionQueue}: reads each file and ingests it. A file that
 * cannot be used (corrupt, unsupported type: a 4xx) or that no longer exists fails at once,
 * without retries; any other failure (the store is down, the file kept changing while it was
 * read…) is retried with backoff. The bytes indexed are one consistent version of the file,
 * the one there when the job ran (see `IngestionOutcome.sha256`). A worker killed mid-job
 * leaves the job to be taken over by another (BullMQ's stalled-job check); ingesting the same
 * content twice adds nothing, so nothing is duplicated. When Redis goes away the worker
 * reports it once (`onConnectionLost`), keeps reconnecting, and takes jobs again once it is
 * back (`onConnectionRestored`); a file in hand is finished and its result recorded then.
 *
 * @example
 * const index = await DocumentIndex.open({ documentsDir, store: await PgVectorStore.open(...) });
 * const worker = await IngestionWorker.start({ redisUrl, target: index, concurrency: 4 });
 * // ... on shutdown:
 * await worker.close();
 */
export class IngestionWorker {
  private constructor(private readonly worker: Worker<IngestionJob, IngestionOutcome>) {}

  static async start(options: IngestionWorkerOptions): Promise<IngestionWorker> {
    const { Worker, UnrecoverableError } = await loadBullMq();
    const process = async (job: Job<IngestionJob>): Promise<IngestionOutcome> => {
      try {
        return await ingestFolderFile(job.data, options.target, options.readFile);
      } catch (error) {
        if (error instanceof PermanentIngestionError) throw new UnrecoverableError(error.message);
        throw error;
      }
    };
    const worker = new Worker<IngestionJob, IngestionOutcome>(
      options.name ?? INGESTION_QUEUE,
      process,
      {
        connection: bullConnection(options.redisUrl),
        concurrency: options.concurrency ?? 4,
        // A killed worker's job is taken over after this long without its lock being renewed.
        lockDuration: options.lockDurationMs ?? 10_000,
        stalledInterval: (options.lockDurationMs ?? 10_000) / 2,
        // A job can be in the hands of a killed worker more than once (kill, restart, kill)
        // before it is failed as one that kills its workers.
        maxStalledCount: 3,
      },
    );
    worker.on('completed', (job, outcome) => options.onCompleted?.(job.data.file, outcome));
    worker.on('failed', (job, error) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const willRetry = !(error instanceof UnrecoverableError) && job.attemptsMade < attempts;
      options.onFailed?.(job.data.file, error.message, willRetry);
    });
    // BullMQ reconnects by itself and resumes; this reports the outage and never throws.
    watchRedisConnection(worker, redisAddress(options.redisUrl), options);
    await worker.waitUntilReady();
    return new IngestionWorker(worker);
  }

  /**
   * Stops taking jobs and finishes the ones in hand; with `force`, returns at once and leaves
   * them to be taken over by another worker (after the lock expires).
   */
  async close(force = false): Promise<void> {
    await this.worker.close(force);
  }
}
