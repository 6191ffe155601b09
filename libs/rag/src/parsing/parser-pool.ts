import { Worker } from 'node:worker_threads';
import { ToolkitError } from '../../../providers/src/internal.js';
import {
  formatMilliseconds,
  resolveIngestionBudget,
  type IngestionBudget,
  type ResolvedIngestionBudget,
} from './ingestion-budget.js';
import { IngestionBudgetError } from './ingestion-budget.error.js';
import type { ParseJob, ParseOutcome } from './parse-job.js';
import type { ParseRequest } from './parse.worker.js';
import { parserWorkerUrl } from './parser-worker-url.js';
import { deserializeError, type SerializedError } from './worker-error.js';

/** A message from a parser worker. */
type WorkerMessage =
  { ready: true } | { id: number; outcome: ParseOutcome } | { id: number; error: SerializedError };

interface PendingJob {
  job: ParseJob;
  resolve(outcome: ParseOutcome): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The job it runs, with its id and time limit. */
  running?: { id: number; pending: PendingJob; timer: NodeJS.Timeout };
  idleTimer?: NodeJS.Timeout;
}

/**
 * Runs `parseDocument` (load a file's text, cut it into chunks) in worker threads, so that
 * parsing never blocks the event loop that serves requests. Each file gets the budget of
 * {@link IngestionBudget}: past its time the worker is terminated, past its heap V8 stops it;
 * either way the file is refused with an `IngestionBudgetError` (422) and a fresh worker takes
 * the next file. Files beyond the workers wait in order; beyond `maxQueued` they are refused with
 * a 503. Idle workers stop after `idleMs`, so an idle app holds none.
 *
 * @example
 * const pool = new ParserPool({ timeoutMs: 10_000 });
 * const { chunks } = await pool.parse({ type: 'txt', content, name: 'a.txt', documentId, chunking: {} });
 * await pool.close();
 */
export class ParserPool {
  readonly budget: ResolvedIngestionBudget;
  private readonly slots = new Set<Slot>();
  private readonly queue: PendingJob[] = [];
  private nextId = 1;
  private closed = false;

  constructor(budget: IngestionBudget = {}) {
    this.budget = resolveIngestionBudget(budget);
  }

  /** Worker threads alive now (busy or idle). */
  get workerCount(): number {
    return this.slots.size;
  }

  /** Files waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Parses one file within the budget (see the class description). */
  parse(job: ParseJob): Promise<ParseOutcome> {
    if (this.closed) return Promise.reject(closingError());
    if (this.queue.length >= this.budget.maxQueued) {
      return Promise.reject(
        new ToolkitError(
          `Too many documents waiting to be indexed (${this.budget.maxQueued}); try again shortly`,
          { statusCode: 503, isRetryable: true, headers: { 'Retry-After': '5' } },
        ),
      );
    }
    return new Promise<ParseOutcome>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; files being parsed or waiting are refused with a 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(closingError());
    const stopping = [...this.slots].map((slot) => {
      this.fail(slot, closingError());
      return slot.worker.terminate();
    });
    await Promise.all(stopping);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = [...this.slots].find((s) => s.ready && !s.running);
      if (slot) {
        this.run(slot, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].some((s) => !s.ready);
      if (starting || this.slots.size >= this.budget.workers) return;
      this.spawn();
    }
  }

  private spawn(): void {
    const worker = new Worker(parserWorkerUrl(), {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.budget.memoryMb },
    });
    // Only a worker at work keeps the process alive (see `run`).
    worker.unref();
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      // A worker that cannot even start (its script missing or broken) fails every waiting file
      // instead of being started again and again.
      if (!slot.ready) for (const pending of this.queue.splice(0)) pending.reject(error);
      const running = slot.running;
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(
        slot,
        outOfMemory && running
          ? new IngestionBudgetError(
              'memory',
              running.pending.job.name,
              `${this.budget.memoryMb} MiB`,
            )
          : error,
      );
      this.remove(slot);
    });
    worker.on('exit', () => {
      this.fail(slot, new Error('The document parser stopped unexpectedly'));
      this.remove(slot);
    });
  }

  private run(slot: Slot, pending: PendingJob): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const id = this.nextId++;
    const timer = setTimeout(() => {
      const limit = formatMilliseconds(this.budget.timeoutMs);
      this.fail(slot, new IngestionBudgetError('time', pending.job.name, limit));
      this.remove(slot);
      void slot.worker.terminate();
    }, this.budget.timeoutMs);
    slot.running = { id, pending, timer };
    slot.worker.ref();
    const request: ParseRequest = { id, job: pending.job };
    slot.worker.postMessage(request);
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if ('ready' in message) {
      slot.ready = true;
    } else if (slot.running?.id === message.id) {
      const { pending, timer } = slot.running;
      clearTimeout(timer);
      slot.running = undefined;
      slot.worker.unref();
      if ('outcome' in message) pending.resolve(message.outcome);
      else pending.reject(deserializeError(message.error));
      slot.idleTimer = setTimeout(() => {
        this.remove(slot);
        void slot.worker.terminate();
      }, this.budget.idleMs).unref();
    }
    this.dispatch();
  }

  /** Rejects the slot's running job, if any. */
  private fail(slot: Slot, error: Error): void {
    const running = slot.running;
    if (!running) return;
    clearTimeout(running.timer);
    slot.running = undefined;
    running.pending.reject(error);
  }

  /** Forgets a worker that stopped or is being stopped, and lets another take the queue. */
  private remove(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (!this.slots.delete(slot)) return;
    if (!this.closed) this.dispatch();
  }
}

function closingError(): ToolkitError {
  return new ToolkitError('The document index is shutting down; try again shortly', {
    statusCode: 503,
    isRetryable: true,
    headers: { 'Retry-After': '5' },
  });
}
