import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../stores/atomic-file.js';

/** What the index remembers about one file of the documents folder. */
export interface ManifestEntry {
  size: number;
  mtimeMs: number;
  sha256: string;
  /** The document the file became; absent when it could not be indexed. */
  documentId?: string;
  /** Why it could not be indexed (then it is retried only once the file changes). */
  error?: string;
}

/**
 * The folder's state at the last indexing, by relative path: a file whose size and mtime are
 * unchanged is skipped without being read; one whose content hash is unchanged is not
 * re-embedded. Stored as JSON, written atomically.
 */
export class IndexManifest {
  /** The write under way (settled when none), and the one waiting for it, if any. */
  private writing: Promise<void> = Promise.resolve();
  private queued?: Promise<void>;

  private constructor(
    readonly path: string,
    private readonly entries: Map<string, ManifestEntry>,
  ) {}

  /** Loads the manifest (an empty one if the file is missing or unreadable). */
  static async load(path: string): Promise<IndexManifest> {
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as {
        files?: Record<string, ManifestEntry>;
      };
      return new IndexManifest(path, new Map(Object.entries(parsed.files ?? {})));
    } catch {
      return new IndexManifest(path, new Map());
    }
  }

  get(file: string): ManifestEntry | undefined {
    return this.entries.get(file);
  }

  set(file: string, entry: ManifestEntry): void {
    this.entries.set(file, entry);
  }

  delete(file: string): void {
    this.entries.delete(file);
  }

  /** Relative paths of every file known. */
  files(): string[] {
    return [...this.entries.keys()];
  }

  /** Paths whose file became `documentId`. */
  filesOf(documentId: string): string[] {
    return [...this.entries].filter(([, e]) => e.documentId === documentId).map(([file]) => file);
  }

  /** Writes the manifest to disk (creating its folder). */
  /**
   * Writes the manifest. Calls made while a write runs share the next one (it holds their
   * changes too), so many concurrent changes cost two writes, not one each.
   */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    const next = this.writing.then(() => {
      this.queued = undefined;
      return this.write();
    });
    this.queued = next;
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async write(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(
      this.path,
      JSON.stringify({ version: 1, files: Object.fromEntries(this.entries) }),
    );
  }
}
