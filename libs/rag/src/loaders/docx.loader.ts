import mammoth from 'mammoth';
import type { LoadedDocument } from '../document.types.js';
import { UnreadableDocumentError } from '../rag.errors.js';
import { normalizeText } from './text-decoding.js';

/**
 * Extracts the text of a Word (DOCX) document with `mammoth`: one paragraph per Word paragraph,
 * separated by blank lines. A damaged archive or a missing document part → 422 (`corrupt`).
 */
export async function loadDocx(buffer: Uint8Array, name: string): Promise<LoadedDocument> {
  let raw: string;
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(buffer) });
    raw = result.value;
  } catch (error) {
    throw new UnreadableDocumentError('corrupt', `"${name}" is not a readable DOCX file`, error);
  }
  return { type: 'docx', text: normalizeText(raw) };
}
