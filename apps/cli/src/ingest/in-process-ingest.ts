import type { IngestionTarget } from '../../../../libs/rag/src/index.js';
import { FolderGoneError } from '../../../../libs/rag/src/index.js';
import {
  listFiles,
  type ListFilesOptions,
  ingestFolderFile,
} from '../../../../libs/rag/src/internal.js';
import { IngestTally } from './ingest-summary.js';

/** Options of {@link ingestInProcess}. */
export interface InProcessIngestOptions {
  /** The folder as the user named it (shown) and its absolute path (read). */
  folder: string;
  path: string;
  /** The project's index. */
  target: IngestionTarget;
  /** Files ingested at once. @default 4 */
  concurrency?: number;
  /** Told about each folder before it is listed (a seam for tests). */
  onFolder?: ListFilesOptions['onFolder'];
  /** Called about every `progressMs`. */
  onProgress?: (tally: IngestTally) => void;
  progressMs?: number;
}

/**
 * Ingests every file of the folder into the index in this process, `concurrency` at a time (the
 * files the queue would take: hidden and temporary files and symbolic links are left out).
 */
export async function ingestInProcess(options: InProcessIngestOptions): Promise<IngestTally> {
  // A folder removed while it is listed: FolderGoneError, one line from the CLI.
  const files = await listFiles(options.path, { required: true, onFolder: options.onFolder }).catch(
    (error: unknown) => {
      throw error instanceof FolderGoneError
        ? new FolderGoneError(options.folder, 'listed')
        : error;
    },
  );
  const tally = new IngestTally('in-process', options.folder, files.length);
  const timer = setInterval(() => options.onProgress?.(tally), options.progressMs ?? 250);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++];
      try {
        // The same read as a worker's: one consistent version, a vanished file said plainly.
        tally.completed(await ingestFolderFile({ folder: options.path, file }, options.target));
      } catch (error) {
        tally.failed(file, error instanceof Error ? error.message : String(error));
      }
    }
  };
  try {
    const lanes = Math.max(1, Math.min(options.concurrency ?? 4, files.length));
    await Promise.all(Array.from({ length: lanes }, lane));
  } finally {
    clearInterval(timer);
  }
  options.onProgress?.(tally);
  return tally;
}
