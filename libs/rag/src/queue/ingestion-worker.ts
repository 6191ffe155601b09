import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Job, Worker } from 'bullmq';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import type { IngestResult } from '../indexing/ingest-result.js';
import { bullConnection, loadBullMq } from './bullmq.js';
import { INGESTION_QUEUE, type IngestionJob, type IngestionOutcome } from './ingestion-job.js';

/** What a worker ingests files into: a `DocumentIndex`, or anything with its `ingest`. */
export interface IngestionTarget {
  ingest(content: Uint8Array, filename: string): Promise<IngestResult>;
}

/** Options of {@link IngestionWorker.start}. */
export interface IngestionWorkerOptions {
  /** Redis URL. */
  redisUrl: string;
  /** Where files go. With several worker processes it must be shared (a pgvector store). */
  target: IngestionTarget;
  /** BullMQ queue name. @default 'toolkit-ingest' */
  name?: string;
  /** Files ingested at once by this worker. @default 4 */
  concurrency?: number;
  /** Told about each file ingested. */
  onCompleted?: (file: string, outcome: IngestionOutcome) => void;
  /** Told about each file that failed an attempt. */
  onFailed?: (file: string, reason: string, willRetry: boolean) => void;
}

/**
 * Processes the jobs of an {@link IngestionQueue}: reads each file and ingests it. A file that
 * cannot be used (corrupt, unsupported type: a 4xx) or that vanished fails at once, without
 * retries; any other failure (the store is down…) is retried with backoff. A worker killed
 * mid-job leaves the job to be taken over by another (BullMQ's stalled-job check); ingesting the
 * same content twice adds nothing, so nothing is duplicated.
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
      const { folder, file } = job.data;
      let content: Buffer;
      try {
        content = await readFile(join(folder, file));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR') {
          throw new UnrecoverableError(`${file} disappeared before it was ingested`);
        }
        throw error;
      }
      try {
        const { document, created } = await options.target.ingest(content, basename(file));
        return { documentId: document.id, created, chunks: created ? document.chunks : 0 };
      } catch (error) {
        if (ToolkitError.isInstance(error) && error.statusCode < 500) {
          throw new UnrecoverableError(error.message);
        }
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
        lockDuration: 10_000,
        stalledInterval: 5_000,
      },
    );
    worker.on('completed', (job, outcome) => options.onCompleted?.(job.data.file, outcome));
    worker.on('failed', (job, error) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const willRetry = !(error instanceof UnrecoverableError) && job.attemptsMade < attempts;
      options.onFailed?.(job.data.file, error.message, willRetry);
    });
    // Connection errors: BullMQ reconnects by itself and resumes; nothing to do but not crash.
    worker.on('error', () => undefined);
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
