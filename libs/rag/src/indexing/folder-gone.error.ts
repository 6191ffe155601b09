import { ToolkitError } from '../../../providers/src/internal.js';

/**
 * A folder to ingest that was removed while it was listed or its files queued (404): nothing,
 * or only the files queued by then, went in.
 *
 * @example
 * await queue.enqueueFolder('docs').catch((error) => {
 *   if (error instanceof FolderGoneError) console.error(error.message);
 * });
 */
export class FolderGoneError extends ToolkitError {
  constructor(
    readonly folder: string,
    readonly when: 'listed' | 'queued',
  ) {
    super(
      when === 'listed'
        ? `folder ${folder} was removed while it was being listed; nothing was ingested from it`
        : `folder ${folder} was removed while its files were being queued; the jobs queued by then fail as files that no longer exist`,
      { statusCode: 404 },
    );
  }
}
