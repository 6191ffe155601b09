import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Queue } from 'bullmq';
import { ToolkitError } from '../../../providers/src/internal.js';
import { isFolder, listFiles } from '../indexing/folder-listing.js';
import { FolderGoneError } from '../indexing/folder-gone.error.js';
import { assertOwner } from '../stores/document-scope.js';
import {
  INGESTION_QUEUE,
  type IngestionCounts,
  type IngestionFailure,
  type IngestionJob,
  type IngestionJobState,
  type IngestionOutcome,
} from './ingestion-job.js';
import { bullConnection, loadBullMq, redisAddress } from './bullmq.js';
import { watchRedisConnection, type RedisConnectionEvents } from './redis-connection-watch.js';

/**
 * Options of {@link IngestionQueue}. While Redis is away its calls wait for it to come back
 * (BullMQ keeps reconnecting); `onConnectionLost` and `onConnectionRestored` say when.
 */
export interface IngestionQueueOptions extends RedisConnectionEvents {
  /** Redis URL. */
  redisUrl: string;
  /** BullMQ queue name. @default 'toolkit-ingest' */
  name?: string;
  /** Attempts per file before it is recorded as failed. @default 3 */
  attempts?: number;
  /** First retry delay, doubled at each attempt. @default 1000 */
  backoffMs?: number;
}

/** Options of {@link IngestionQueue.enqueueFolder}. */
export interface EnqueueFolderOptions {
  /**
   * Whose documents the files become (see `DocumentScope`): only that owner (and the app) sees
   * them. Absent: shared, like the documents folder's files.
   */
  owner?: string;
}

/** What {@link IngestionQueue.enqueueFolder} did. */
export interface EnqueueReport {
  /** Files found in the folder (a file deleted while they were queued is not counted). */
  files: number;
  /** Jobs added now. */
  queued: number;
  /** Files whose job (same path, size and modification time) was already queued or done. */
  known: number;
}

/** {@link EnqueueReport} with the ids of the jobs, for {@link IngestionQueue.jobStates}. */
export interface TrackedEnqueueReport extends EnqueueReport {
  queuedIds: string[];
  knownIds: string[];
}

/** How long finished jobs are kept: a re-run within it queues nothing for unchanged files. */
const KEEP_SECONDS = 7 * 24 * 3600;

/**
 * Folder ingestion as jobs on a Redis-backed BullMQ queue, processed by any number of
 * {@link IngestionWorker}s in any number of processes. One job per file, identified by its path,
 * size and modification time, so queuing the same folder twice adds nothing for unchanged files
 * (and a worker adds nothing for content already indexed: documents are keyed by content hash).
 * A failing file is retried with exponential backoff, then kept as failed with its reason.
 *
 * @example
 * const queue = new IngestionQueue({ redisUrl: 'redis://127.0.0.1:6379' });
 * await queue.enqueueFolder('./handbooks');
 * await queue.waitUntilDone((counts) => console.log(counts));
 * console.log(await queue.failures());
 * await queue.close();
 */
export class IngestionQueue {
  private queue?: Promise<Queue<IngestionJob, IngestionOutcome>>;

  constructor(private readonly options: IngestionQueueOptions) {}

  /**
   * Queues every file of `folder` not already queued in the same state. A folder removed while
   * it is listed or queued rejects with `FolderGoneError` (jobs queued by then fail one by one
   * as `file no longer exists`).
   */
  async enqueueFolder(folder: string, options: EnqueueFolderOptions = {}): Promise<EnqueueReport> {
    const { files, queued, known } = await this.enqueueFolderJobs(folder, options);
    return { files, queued, known };
  }

  /**
   * {@link enqueueFolder}, also naming the job of every file, to follow them with
   * {@link jobStates}: `queuedIds` were added now, `knownIds` were already there.
   */
  async enqueueFolderJobs(
    folder: string,
    options: EnqueueFolderOptions = {},
  ): Promise<TrackedEnqueueReport> {
    const { owner } = options;
    assertOwner(owner);
    const root = resolve(folder);
    if (!(await isFolder(root))) {
      throw new ToolkitError(`${folder} is not a folder`, { statusCode: 404 });
    }
    const files = await listFiles(root, { required: true });
    const queue = await this.open();
    const queuedIds: string[] = [];
    const knownIds: string[] = [];
    const BATCH = 500;
    for (let from = 0; from < files.length; from += BATCH) {
      const jobs = [];
      for (const file of files.slice(from, from + BATCH)) {
        const entry = await stat(join(root, file)).catch(() => undefined);
        if (!entry) {
          // Deleted since the listing: not queued, unless the whole folder went.
          if (!(await isFolder(root))) throw new FolderGoneError(root, 'queued');
          continue;
        }
        const data: IngestionJob = {
          folder: root,
          file,
          size: entry.size,
          mtimeMs: entry.mtimeMs,
          ...(owner !== undefined && { owner }),
        };
        jobs.push({ name: 'file', data, opts: { jobId: jobIdOf(data) } });
      }
      // Jobs with an id BullMQ already holds are not added again; count the new ones.
      const existing = await Promise.all(jobs.map((job) => queue.getJob(job.opts.jobId)));
      const fresh = jobs.filter((_, i) => !existing[i]);
      if (fresh.length > 0) await queue.addBulk(fresh);
      for (const [i, job] of jobs.entries())
        (existing[i] ? knownIds : queuedIds).push(job.opts.jobId);
    }
    const queued = queuedIds.length;
    const known = knownIds.length;
    return { files: queued + known, queued, known, queuedIds, knownIds };
  }

  /**
   * Where each job stands: `pending` (waiting, running or waiting for a retry), `completed` with
   * what it did, `failed` with its last reason, or `missing` (removed from the queue).
   */
  async jobStates(jobIds: readonly string[]): Promise<IngestionJobState[]> {
    const queue = await this.open();
    return Promise.all(
      jobIds.map(async (id): Promise<IngestionJobState> => {
        const job = await queue.getJob(id);
        if (!job) return { id, file: '', state: 'missing' };
        const file = job.data.file;
        if (!job.finishedOn) return { id, file, state: 'pending' };
        const state = await job.getState();
        if (state === 'completed') return { id, file, state, outcome: job.returnvalue };
        if (state === 'failed') return { id, file, state, reason: job.failedReason };
        return { id, file, state: 'pending' };
      }),
    );
  }

  /** Jobs by state. */
  async counts(): Promise<IngestionCounts> {
    const queue = await this.open();
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    return {
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
    };
  }

  /** Files that failed all their attempts, with the last reason. */
  async failures(limit = 1000): Promise<IngestionFailure[]> {
    const queue = await this.open();
    const jobs = await queue.getFailed(0, limit - 1);
    return jobs.map((job) => ({
      file: job.data.file,
      reason: job.failedReason,
      attempts: job.attemptsMade,
    }));
  }

  /**
   * Resolves once no job waits, runs or waits for a retry; `onProgress` gets the counts about
   * every `intervalMs` meanwhile.
   */
  async waitUntilDone(
    onProgress?: (counts: IngestionCounts) => void,
    intervalMs = 250,
  ): Promise<IngestionCounts> {
    for (;;) {
      const counts = await this.counts();
      onProgress?.(counts);
      if (counts.waiting + counts.active + counts.delayed === 0) return counts;
      await new Promise((done) => setTimeout(done, intervalMs));
    }
  }

  /** Workers connected to the queue now (from Redis' client list). */
  async workerCount(): Promise<number> {
    return (await this.open()).getWorkersCount();
  }

  /** Removes every job of the queue (for tests and a fresh start). */
  async obliterate(): Promise<void> {
    await (await this.open()).obliterate({ force: true });
  }

  async close(): Promise<void> {
    if (this.queue) await (await this.queue).close();
    this.queue = undefined;
  }

  private open(): Promise<Queue<IngestionJob, IngestionOutcome>> {
    this.queue ??= loadBullMq().then(({ Queue }) => {
      const queue = new Queue<IngestionJob, IngestionOutcome>(
        this.options.name ?? INGESTION_QUEUE,
        {
          connection: bullConnection(this.options.redisUrl),
          defaultJobOptions: {
            attempts: this.options.attempts ?? 3,
            backoff: { type: 'exponential', delay: this.options.backoffMs ?? 1000 },
            removeOnComplete: { age: KEEP_SECONDS },
            removeOnFail: { age: KEEP_SECONDS },
          },
        },
      );
      watchRedisConnection(queue, redisAddress(this.options.redisUrl), this.options);
      return queue;
    });
    return this.queue;
  }
}

/**
 * Same folder, file, size, modification time and owner: the same job (the same file queued for
 * two owners is two jobs; a shared job's id is the one it had before owners existed).
 */
function jobIdOf(job: IngestionJob): string {
  const owner = job.owner === undefined ? '' : `\u0000${job.owner}`;
  return createHash('sha256')
    .update(`${job.folder}\u0000${job.file}\u0000${job.size}\u0000${job.mtimeMs}${owner}`)
    .digest('base64url');
}
