import type { IngestResult } from '../indexing/ingest-result.js';

/** What a worker ingests files into: a `DocumentIndex`, or anything with its `ingest`. */
export interface IngestionTarget {
  /** Ingests one file as `owner`'s (shared without one). */
  ingest(
    content: Uint8Array,
    filename: string,
    options?: { owner?: string },
  ): Promise<IngestResult>;
}

/** One file to ingest, as a queued job carries it. */
export interface IngestionJob {
  /** Absolute path of the folder being ingested. */
  folder: string;
  /** The file, relative to `folder`, with `/` separators. */
  file: string;
  /** Size and modification time when it was queued (a changed file is a new job). */
  size: number;
  mtimeMs: number;
  /** Whose documents the files become (see `DocumentScope`); absent: shared. */
  owner?: string;
}

/** What ingesting one file did. */
export interface IngestionOutcome {
  /** The document (content hash) the file is indexed as. */
  documentId: string;
  /** sha256 of the bytes actually read and indexed (the file as it was when processed). */
  sha256: string;
  /** False when the same content was already indexed: nothing was added. */
  created: boolean;
  /** Chunks stored for it (0 when nothing was added). */
  chunks: number;
  /** True when the file's size or mtime differed from the queued ones: its new content was indexed. */
  changedSinceQueued?: boolean;
}

/** Where one queued file stands (see `IngestionQueue.jobStates`). */
export type IngestionJobState =
  | { id: string; file: string; state: 'pending' | 'missing' }
  | { id: string; file: string; state: 'completed'; outcome: IngestionOutcome }
  | { id: string; file: string; state: 'failed'; reason: string };

/** Job counts of an ingestion queue. */
export interface IngestionCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

/** A file that could not be ingested after its attempts, and why. */
export interface IngestionFailure {
  file: string;
  reason: string;
  attempts: number;
}

/** The default BullMQ queue name of folder ingestion. */
export const INGESTION_QUEUE = 'toolkit-ingest';
