import { mkdir, rm } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ValidationError } from '../../../providers/src/internal.js';
import type { DocumentType } from '../document.types.js';
import { writeFileAtomic } from '../stores/atomic-file.js';
import { OriginalNames } from './original-names.js';

const EXTENSIONS: Record<DocumentType, string> = {
  pdf: 'pdf',
  docx: 'docx',
  txt: 'txt',
  html: 'html',
  markdown: 'md',
};

/**
 * Keeps uploaded originals in one folder under SERVER-GENERATED names, `<documentId>.<ext>`,
 * where the id is the content hash and the extension comes from the detected type: the
 * client's filename never becomes a path, so `../../etc/passwd` cannot escape, and the same
 * content is stored once. The client's name is recorded beside the files (`.names.json`), for
 * display only: `displayName` gives it back, also after the index was rebuilt from the folder.
 * The owner of a private upload is recorded the same way (`.owners.json`, written before the
 * file), so a rebuilt index keeps it private: `ownerOf`.
 *
 * @example
 * const storage = new DocumentStorage('docs/documents');
 * await storage.save('3f2a…', 'pdf', bytes, 'handbook.pdf'); // stored as '3f2a….pdf'
 * await storage.displayName('3f2a….pdf'); // 'handbook.pdf'
 */
export class DocumentStorage {
  readonly directory: string;
  private readonly names: OriginalNames;
  private readonly owners: OriginalNames;

  constructor(directory: string) {
    this.directory = resolve(directory);
    this.names = new OriginalNames(join(this.directory, '.names.json'));
    this.owners = new OriginalNames(join(this.directory, '.owners.json'), 'owners');
  }

  /** The name a document is stored under. */
  static fileName(documentId: string, type: DocumentType): string {
    if (!/^[a-f0-9]{16,64}$/.test(documentId)) {
      throw new ValidationError([{ param: 'document_id', problem: 'must be a hex content hash' }]);
    }
    return `${documentId}.${EXTENSIONS[type]}`;
  }

  /**
   * Writes the original (atomically) and records `originalName`, the client's name (already
   * cleaned: see `displayName` of the loaders), unless it is the stored name itself, and the
   * `owner` of a private upload; returns the path relative to the folder.
   */
  async save(
    documentId: string,
    type: DocumentType,
    content: Uint8Array,
    originalName?: string,
    owner?: string,
  ): Promise<string> {
    const name = DocumentStorage.fileName(documentId, type);
    await mkdir(this.directory, { recursive: true });
    // First: a crash right after must not leave a private file that looks shared.
    if (owner !== undefined) await this.owners.set(name, owner);
    await writeFileAtomic(join(this.directory, name), content);
    if (originalName !== undefined && originalName !== name) {
      await this.names.set(name, originalName);
    }
    return name;
  }

  /**
   * The name to show for a stored file: the client's name recorded when it was saved, else
   * the file's own name (files put in the folder by hand, stores from before names were kept).
   */
  async displayName(relativePath: string): Promise<string> {
    this.resolve(relativePath);
    return (await this.names.get(relativePath)) ?? basename(relativePath);
  }

  /** The owner recorded for a stored file; undefined for a shared one. */
  async ownerOf(relativePath: string): Promise<string | undefined> {
    this.resolve(relativePath);
    return this.owners.get(relativePath);
  }

  /**
   * Deletes a stored file (and its recorded name and owner) by its relative path; paths outside
   * the folder are refused.
   */
  async remove(relativePath: string): Promise<void> {
    await rm(this.resolve(relativePath), { force: true });
    await this.names.delete(relativePath);
    await this.owners.delete(relativePath);
  }

  /** Absolute path of a relative one, which must stay inside the folder. */
  resolve(relativePath: string): string {
    const full = resolve(this.directory, relativePath);
    const rel = relative(this.directory, full);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
      throw new ValidationError([
        { param: 'path', problem: 'must stay inside the documents folder' },
      ]);
    }
    return full;
  }
}
