import { ToolkitError } from '../../../providers/src/internal.js';
import type { LoadedDocument } from '../document.types.js';
import { DocumentTooLargeError, UnreadableDocumentError } from '../rag.errors.js';
import { extractDocxText } from './docx-text.js';
import { inflateZipEntry, TOO_LARGE } from './inflate-zip-entry.js';
import { type LoadOptions, resolveLoadOptions } from './load-options.js';
import { normalizeText } from './text-decoding.js';
import { readZipDirectory } from './zip-archive.js';

/** The part of a Word package that holds the body text. */
const DOCUMENT_PART = 'word/document.xml';

/**
 * Extracts the text of a Word (DOCX) document: one paragraph per Word paragraph, separated by
 * blank lines (see `extractDocxText`). Only `word/document.xml` is inflated, within
 * `maxInflatedBytes`, and read in one linear pass, so a hostile file costs at most the limit.
 *
 * A damaged archive, a missing document part or malformed XML → 422 (`corrupt`); an encrypted
 * entry → 422 (`encrypted`); a document part past the limit → 413 `DocumentTooLargeError`.
 */
export function loadDocx(buffer: Uint8Array, name: string, options?: LoadOptions): LoadedDocument {
  const { maxInflatedBytes, limitSetting } = resolveLoadOptions(options);
  let raw: string;
  try {
    const entry = readZipDirectory(buffer).find((candidate) => candidate.name === DOCUMENT_PART);
    if (entry === undefined) throw new Error(`the archive has no ${DOCUMENT_PART}`);
    if (entry.encrypted) {
      throw new UnreadableDocumentError('encrypted', `"${name}" is password-protected`);
    }
    const xml = inflateZipEntry(buffer, entry, maxInflatedBytes);
    if (xml === TOO_LARGE) {
      throw new DocumentTooLargeError(name, 'its text part', maxInflatedBytes, limitSetting);
    }
    raw = extractDocxText(decodeXml(xml));
  } catch (error) {
    if (ToolkitError.isInstance(error)) throw error;
    throw new UnreadableDocumentError('corrupt', `"${name}" is not a readable DOCX file`, error);
  }
  return { type: 'docx', text: normalizeText(raw) };
}

/** XML parts are UTF-8 unless a byte-order mark says UTF-16. */
function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}
