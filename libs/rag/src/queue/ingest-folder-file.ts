import { basename, join } from 'node:path';
import { ToolkitError } from '../../../providers/src/internal.js';
import { readStableFile, type ReadStableFileOptions } from '../indexing/read-stable-file.js';
import type { IngestionJob, IngestionOutcome, IngestionTarget } from './ingestion-job.js';
import { PermanentIngestionError } from './permanent-ingestion.error.js';

/** The reason recorded for a file deleted (or whose folder was) after it was listed or queued. */
export const FILE_GONE_REASON = 'file no longer exists (deleted after its folder was listed)';

/**
 * Ingests one file of a folder (a queued job's, or one `toolkit ingest` takes in process) as it
 * is now, as the job's `owner`'s document (shared without one): the bytes of one consistent read (see
 * `readStableFile`), hashed by the target, so the document and the recorded `sha256` always
 * match what was indexed, even when the file changed after it was queued. A missing file or
 * an unusable one (a 4xx from the target: corrupt, unsupported) is a
 * {@link PermanentIngestionError}; anything else (the store is down, the file kept changing
 * while read) is worth a retry. Without the queued `size` and `mtimeMs` (a folder ingested in
 * process), `changedSinceQueued` is never set.
 */
export async function ingestFolderFile(
  job: Pick<IngestionJob, 'folder' | 'file'> & Partial<IngestionJob>,
  target: IngestionTarget,
  read?: ReadStableFileOptions['read'],
): Promise<IngestionOutcome> {
  let file;
  try {
    file = await readStableFile(join(job.folder, job.file), { read });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new PermanentIngestionError(FILE_GONE_REASON);
    if (code === 'EISDIR') throw new PermanentIngestionError('is a folder now, not a file');
    throw error;
  }
  try {
    const { document, created } = await target.ingest(
      file.content,
      basename(job.file),
      job.owner === undefined ? {} : { owner: job.owner },
    );
    return {
      documentId: document.id,
      sha256: document.sha256,
      created,
      chunks: created ? document.chunks : 0,
      ...(job.size !== undefined && (file.size !== job.size || file.mtimeMs !== job.mtimeMs)
        ? { changedSinceQueued: true }
        : {}),
    };
  } catch (error) {
    if (ToolkitError.isInstance(error) && error.statusCode < 500) {
      throw new PermanentIngestionError(error.message);
    }
    throw error;
  }
}
