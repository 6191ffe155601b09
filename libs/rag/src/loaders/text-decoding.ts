import { UnsupportedDocumentError } from '../rag.errors.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes a text file: UTF-8 (BOM optional) or UTF-16 with a BOM. Bytes that are not text
 * (NUL bytes, invalid UTF-8) are a 415, so a binary file renamed `.txt` is refused.
 */
export function decodeText(buffer: Uint8Array, filename: string): string {
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return new TextDecoder('utf-16le').decode(buffer);
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return new TextDecoder('utf-16be').decode(buffer);
  if (buffer.includes(0)) throw notText(filename);
  try {
    return UTF8.decode(buffer);
  } catch {
    throw notText(filename);
  }
}

/** True when the bytes look like text (no NUL byte, valid UTF-8 or a UTF-16 BOM). */
export function looksLikeText(buffer: Uint8Array): boolean {
  try {
    decodeText(buffer, '');
    return true;
  } catch {
    return false;
  }
}

/**
 * Normalises extracted text: `\n` line endings, no trailing spaces, no runs of more than one
 * blank line, no leading or trailing blank lines.
 */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replaceAll('\0', ' ')
    .replace(/[\f\v]/g, ' ')
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function notText(filename: string): UnsupportedDocumentError {
  return new UnsupportedDocumentError(
    `"${filename}" is not a text file (binary content or invalid UTF-8)`,
  );
}
