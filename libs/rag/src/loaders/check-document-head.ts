import { detectDocumentType } from './detect-document-type.js';
import { sniffContent, type SniffedContent } from './sniff-content.js';

/**
 * What a file's first bytes can already rule out. A binary format recognised by its magic
 * number is certain from the first bytes; "binary data" is not (a head cut inside a UTF-8
 * character looks binary), nor is a ZIP that is not yet known to be a DOCX.
 */
const CERTAIN: ReadonlySet<SniffedContent> = new Set([
  'pdf',
  'docx',
  'ole',
  'png',
  'jpeg',
  'gif',
  'webp',
  'gzip',
  'executable',
  'text',
]);

/**
 * The early part of `detectDocumentType`, for an upload still streaming in: given a file's first
 * bytes (its first KiB), throws the same 415 `detectDocumentType` would for an unsupported
 * extension or for content the head already shows to be something else (a `.pdf` that starts
 * like a PNG, a `.txt` that is a gzip archive), so the rest of the file is never read. What the
 * head cannot decide (a ZIP whose `word/document.xml` part may come later, a head cut inside a
 * UTF-8 character) passes; `detectDocumentType` on the whole file still decides.
 *
 * @example
 * readUploads(req, { maxFileBytes, checkHead: (head, file) => checkDocumentHead(head, file.filename) });
 */
export function checkDocumentHead(head: Uint8Array, filename: string): void {
  if (head.length === 0) return;
  const content = sniffContent(head);
  if (!CERTAIN.has(content) && content !== 'zip') {
    // Undecided content: only the extension can be checked now (any text head stands in).
    detectDocumentType(Buffer.from('text'), extensionOnly(filename));
    return;
  }
  if (content === 'zip') {
    // A DOCX is a ZIP: whether it holds a document part is known once the whole file is here.
    try {
      detectDocumentType(head, filename);
    } catch (error) {
      if (/\.docx$/i.test(filename.trim())) return;
      throw error;
    }
    return;
  }
  detectDocumentType(head, filename);
}

/** The name with only its extension kept, so a check of it alone reads the same. */
function extensionOnly(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? `file${filename.slice(dot)}` : filename;
}
