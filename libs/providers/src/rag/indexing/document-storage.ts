import { mkdir, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ValidationError } from '../../errors/validation.error.js';
import type { DocumentType } from '../document.types.js';
import { writeFileAtomic } from '../stores/atomic-file.js';

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
 * content is stored once.
 *
 * @example
 * const storage = new DocumentStorage('docs/documents');
 * await storage.save('3f2a…', 'pdf', bytes); // 'docs/documents/3f2a….pdf' → returns '3f2a….pdf'
 */
export class DocumentStorage {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = resolve(directory);
  }

  /** The name a document is stored under. */
  static fileName(documentId: string, type: DocumentType): string {
    if (!/^[a-f0-9]{16,64}$/.test(documentId)) {
      throw new ValidationError([{ param: 'document_id', problem: 'must be a hex content hash' }]);
    }
    return `${documentId}.${EXTENSIONS[type]}`;
  }

  /** Writes the original (atomically); returns its path relative to the folder. */
  async save(documentId: string, type: DocumentType, content: Uint8Array): Promise<string> {
    const name = DocumentStorage.fileName(documentId, type);
    await mkdir(this.directory, { recursive: true });
    await writeFileAtomic(join(this.directory, name), content);
    return name;
  }

  /** Deletes a stored file by its relative path; paths outside the folder are refused. */
  async remove(relativePath: string): Promise<void> {
    await rm(this.resolve(relativePath), { force: true });
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
