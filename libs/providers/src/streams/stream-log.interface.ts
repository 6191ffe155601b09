/**
 * One entry of a resumable stream's log: an event as the client will read it, or how the
 * stream ended.
 */
export type StreamLogEntry =
  | { kind: 'event'; data: string; type?: string; retry?: number }
  | { kind: 'end' }
  | { kind: 'error'; message: string };

/** What {@link StreamLog.append} learnt while writing. */
export interface AppendOutcome {
  /** Someone asked (from any process) to cancel this stream. */
  cancelled: boolean;
}

/**
 * Where the events of resumable streams (`@Stream({ resumable: true })`) are kept while they
 * can be resumed, shared by every process that uses the same backend: in-process
 * ({@link MemoryStreamLog}) or Redis ({@link RedisStreamLog}). Entries are numbered from 1 in the
 * order they were appended; a stream and its entries expire `ttlSeconds` after its last append.
 * A stream has one writer (the process running its producer) and any number of readers.
 */
export interface StreamLog {
  /** Which backend this is. */
  readonly backend: 'memory' | 'redis';
  /** Makes an empty stream, readable at once. */
  create(id: string, ttlSeconds: number): Promise<void>;
  /** Adds one entry (number = previous count + 1) and refreshes the stream's expiry. */
  append(id: string, entry: StreamLogEntry, ttlSeconds: number): Promise<AppendOutcome>;
  /** Entries numbered above `after`, in order; `undefined` when the stream is unknown or expired. */
  read(id: string, after: number): Promise<StreamLogEntry[] | undefined>;
  /**
   * Resolves once `id` may hold entries numbered above `after` (at once if it does already), a
   * cancel arrived, `maxWaitMs` passed or `signal` aborted. Readers call {@link read} again
   * afterwards.
   */
  wait(id: string, after: number, maxWaitMs: number, signal?: AbortSignal): Promise<void>;
  /**
   * Says the stream's writer is alive for `leaseMs` more (it calls this again well before).
   * A stream whose lease lapsed without an end entry lost its writer (its process died).
   */
  keepAlive(id: string, leaseMs: number): Promise<void>;
  /** False once the writer's lease lapsed (or the stream is unknown). */
  producing(id: string): Promise<boolean>;
  /** Asks the stream's writer, in whatever process, to stop. False when the stream is unknown. */
  cancel(id: string): Promise<boolean>;
  /** Calls `listener` when a cancel for `id` arrives; returns the unsubscribe function. */
  onCancel(id: string, listener: () => void): () => void;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/**
 * Injection token of the application's {@link StreamLog}, which `ToolkitModule` provides from
 * the configuration (Redis when `memory.backend` or `cache.backend` is `redis`, in-process
 * otherwise) and `ResumableStreams` writes and reads (it closes the log at shutdown, once its
 * producers recorded their end). Tests replace it like the cache and memory stores.
 *
 * @example
 * Test.createTestingModule({ imports: [AppModule] }).overrideProvider(StreamLog).useValue(log);
 */
export const StreamLog = Symbol('StreamLog');
