import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ToolkitError } from '../../../providers/src/internal.js';
import type { DocumentType } from '../document.types.js';
import { detectDocumentType } from '../loaders/detect-document-type.js';
import { listFiles } from './folder-listing.js';
import { hashContent } from './content-hash.js';
import type { DocumentStorage } from './document-storage.js';
import type { IndexManifest } from './index-manifest.js';
import { ProgressTracker, type IndexingProgress, type IndexLogger } from './indexing-progress.js';
import type { IngestResult } from './ingest-result.js';
import { readStableFile } from './read-stable-file.js';

/** The result of indexing a folder: the final progress numbers plus what went wrong. */
export interface FolderIndexReport extends IndexingProgress {
  /** Documents removed because their files disappeared. */
  filesRemoved: number;
  /** Files that could not be indexed, with the reason. */
  failures: { file: string; error: string }[];
}

/** A stored file's location and stat, as the manifest keeps it. */
export interface StoredFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** What the folder indexer needs from the index. */
export interface FolderIndexTarget {
  has(documentId: string): boolean;
  /** Indexes a file as `owner`'s (a private upload's, from `.owners.json`) or shared. */
  index(
    content: Buffer,
    type: DocumentType,
    name: string,
    file: StoredFile,
    owner: string | undefined,
  ): Promise<IngestResult>;
  forget(documentId: string): Promise<boolean>;
}

const SAVE_EVERY = 50;

const LOST_OWNER =
  'a private upload whose owner is not recorded in .owners.json: not indexed (it would be shared)';

/**
 * True for a stored upload's name (`<32 hex>.<ext>`) that is not the content's shared id: the
 * id of an owned copy (see `hashContent`).
 */
function namedAsOwned(file: string, sharedId: string): boolean {
  const match = /^([0-9a-f]{32})\.[a-z]+$/.exec(basename(file));
  return match !== null && match[1] !== sharedId;
}

/**
 * One incremental pass over the documents folder (see `DocumentIndex.indexFolder`). Hidden
 * entries (`.index`, dotfiles), temporary files and symbolic links are ignored. Files are
 * shared, except private uploads, indexed again as their owner's (`DocumentStorage.ownerOf`);
 * a stored upload whose name is an owned id but whose owner record is lost is refused rather
 * than shared.
 */
export class FolderIndexer {
  constructor(
    private readonly storage: DocumentStorage,
    private readonly manifest: IndexManifest,
    private readonly logger: IndexLogger | undefined,
    private readonly target: FolderIndexTarget,
  ) {}

  async run(): Promise<FolderIndexReport> {
    const files = await listFiles(this.storage.directory);
    const tracker = new ProgressTracker(files.length, this.logger);
    const failures: FolderIndexReport['failures'] = [];
    const orphanCandidates = new Set<string>();
    for (const [n, file] of files.entries()) {
      const previous = this.manifest.get(file)?.documentId;
      try {
        const outcome = await this.indexFile(file);
        tracker.file(outcome.created ? 'indexed' : 'unchanged', outcome.chunks);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.push({ file, error: message });
        tracker.file('failed');
        this.logger?.(`Could not index ${file}: ${message}`, tracker.snapshot());
      }
      const current = this.manifest.get(file)?.documentId;
      if (previous && previous !== current) orphanCandidates.add(previous);
      if ((n + 1) % SAVE_EVERY === 0) await this.manifest.save();
    }
    const present = new Set(files);
    let filesRemoved = 0;
    for (const file of this.manifest.files()) {
      if (present.has(file)) continue;
      const documentId = this.manifest.get(file)?.documentId;
      this.manifest.delete(file);
      if (documentId) orphanCandidates.add(documentId);
    }
    for (const documentId of orphanCandidates) {
      if (
        this.manifest.filesOf(documentId).length === 0 &&
        (await this.target.forget(documentId))
      ) {
        filesRemoved += 1;
      }
    }
    await this.manifest.save();
    return { ...tracker.finish(), filesRemoved, failures };
  }

  private async indexFile(file: string): Promise<{ created: boolean; chunks: number }> {
    const full = this.storage.resolve(file);
    const info = await stat(full);
    const known = this.manifest.get(file);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) {
      if (known.error !== undefined) throw new Error(known.error);
      if (known.documentId && this.target.has(known.documentId))
        return { created: false, chunks: 0 };
    }
    // One consistent version of a file being written: its bytes and the stat they go with.
    const { content, size, mtimeMs } = await readStableFile(full);
    const owner = await this.storage.ownerOf(file);
    const { id, sha256 } = hashContent(content, owner);
    const entry = { size, mtimeMs, sha256 };
    if (owner === undefined && namedAsOwned(file, id)) {
      this.manifest.set(file, { ...entry, error: LOST_OWNER });
      throw new ToolkitError(LOST_OWNER, { statusCode: 422 });
    }
    if (this.target.has(id)) {
      this.manifest.set(file, { ...entry, documentId: id });
      return { created: false, chunks: 0 };
    }
    try {
      const type = detectDocumentType(content, basename(file));
      const name = await this.storage.displayName(file);
      const result = await this.target.index(content, type, name, { path: file, ...entry }, owner);
      return { created: result.created, chunks: result.created ? result.document.chunks : 0 };
    } catch (error) {
      // A file that cannot be read (4xx) is remembered, and retried only once it changes; one
      // over the ingestion budget is retried at the next start (the budget may have been raised).
      if (ToolkitError.isInstance(error) && error.statusCode < 500 && !error.isRetryable) {
        this.manifest.set(file, { ...entry, error: error.message });
      }
      throw error;
    }
  }
}
