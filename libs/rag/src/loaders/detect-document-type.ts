import type { DocumentType } from '../document.types.js';
import { UnreadableDocumentError, UnsupportedDocumentError } from '../rag.errors.js';
import { describeContent, isTruncatedZip, sniffContent } from './sniff-content.js';

/** File extensions the loaders accept, and the format each one claims. */
export const DOCUMENT_EXTENSIONS: Readonly<Record<string, DocumentType>> = {
  pdf: 'pdf',
  docx: 'docx',
  txt: 'txt',
  text: 'txt',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
};

const SUPPORTED = '.pdf, .docx, .txt, .md, .html';
const TEXT_TYPES: ReadonlySet<DocumentType> = new Set(['txt', 'markdown', 'html']);
const LABELS: Record<DocumentType, string> = {
  pdf: 'PDF',
  docx: 'DOCX',
  txt: 'a text file',
  markdown: 'Markdown',
  html: 'HTML',
};

/**
 * Decides a file's format from its content AND its name, refusing anything that does not add up:
 * - an empty file → 422 (`UnreadableDocumentError`, reason `empty`);
 * - an extension other than `.pdf .docx .txt .text .md .markdown .html .htm` → 415;
 * - content that contradicts the extension (a `.pdf` that is a PNG, a `.docx` that is a plain
 *   ZIP, a `.txt` holding binary bytes) → 415 (`UnsupportedDocumentError`), except a `.docx`
 *   that is a ZIP cut short → 422 (`corrupt`: a truncated DOCX);
 * - no extension: the content decides (PDF, DOCX, HTML if it starts like HTML, else text);
 *   images, archives and other binaries → 415.
 *
 * @example
 * detectDocumentType(readFileSync('report.pdf'), 'report.pdf'); // 'pdf'
 */
export function detectDocumentType(buffer: Uint8Array, filename: string): DocumentType {
  const name = displayName(filename);
  if (buffer.length === 0) throw new UnreadableDocumentError('empty', `"${name}" is empty`);
  const ext = extensionOf(name);
  const content = sniffContent(buffer);
  if (ext !== undefined) {
    // Own entries only: a file named "x.constructor" claims no type.
    const claimed = Object.hasOwn(DOCUMENT_EXTENSIONS, ext) ? DOCUMENT_EXTENSIONS[ext] : undefined;
    if (claimed === undefined) {
      throw new UnsupportedDocumentError(
        `"${name}": unsupported file type ".${ext}" (supported: ${SUPPORTED})`,
      );
    }
    const matches = TEXT_TYPES.has(claimed) ? content === 'text' : content === claimed;
    if (!matches && claimed === 'docx' && content === 'zip' && isTruncatedZip(buffer)) {
      // Cut before its `word/document.xml` part: a damaged DOCX, not some other archive.
      throw new UnreadableDocumentError(
        'corrupt',
        `"${name}" is not a readable DOCX file: the archive is truncated or damaged`,
      );
    }
    if (!matches) {
      throw new UnsupportedDocumentError(
        `"${name}" claims to be ${LABELS[claimed]} but its content is ${describeContent(content)}`,
      );
    }
    return claimed;
  }
  if (content === 'pdf' || content === 'docx') return content;
  if (content === 'text') return looksLikeHtml(buffer) ? 'html' : 'txt';
  throw new UnsupportedDocumentError(
    `"${name}": unsupported content, ${describeContent(content)} (supported: ${SUPPORTED})`,
  );
}

/**
 * The last path segment of a client-supplied name, without control characters and at most 120
 * characters long: safe to echo in messages, never used as a path.
 */
export function displayName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean.length > 120 ? `${clean.slice(0, 117)}...` : clean) || 'unnamed';
}

function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : undefined;
}

function looksLikeHtml(buffer: Uint8Array): boolean {
  const head = Buffer.from(buffer.buffer, buffer.byteOffset, Math.min(buffer.length, 512))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return /^<(!doctype html|html|head|body|!--)/.test(head);
}
