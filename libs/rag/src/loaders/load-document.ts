import { ToolkitError } from '../../../providers/src/internal.js';
import type { DocumentType, LoadedDocument } from '../document.types.js';
import { UnreadableDocumentError } from '../rag.errors.js';
import { detectDocumentType, displayName } from './detect-document-type.js';
import { loadDocx } from './docx.loader.js';
import { loadHtml } from './html.loader.js';
import { type LoadOptions, resolveLoadOptions } from './load-options.js';
import { loadMarkdown } from './markdown.loader.js';
import { loadPdf } from './pdf.loader.js';
import { decodeText, normalizeText } from './text-decoding.js';

/**
 * Turns an uploaded file into plain text. The format is detected from the content and checked
 * against the extension (see `detectDocumentType`), then read with the matching loader:
 * PDF (`unpdf`), DOCX (toolkit's own bounded reader), HTML (`cheerio`), Markdown (`marked`), or
 * UTF-8/UTF-16 text.
 *
 * Never crashes on bad input; it rejects with a `ToolkitError` instead:
 * 415 `UnsupportedDocumentError` for unsupported or mismatched types, 422
 * `UnreadableDocumentError` for empty, corrupt, password-protected or text-less files, 413
 * `DocumentTooLargeError` for a DOCX or PDF that would inflate past `options.maxInflatedBytes`
 * (default 64 MiB, see `LoadOptions`).
 *
 * @example
 * const doc = await loadDocument(await readFile('handbook.pdf'), 'handbook.pdf');
 * doc.text;   // 'Welcome…'
 * doc.pages;  // [{ number: 1, start: 0, end: 1834, text: '…' }, …]
 */
export async function loadDocument(
  buffer: Uint8Array,
  filename: string,
  options?: LoadOptions,
): Promise<LoadedDocument> {
  const type = detectDocumentType(buffer, filename);
  return loadAs(type, buffer, displayName(filename), options);
}

/** Loads bytes whose type is already known (skips detection); `options` as for `loadDocument`. */
export async function loadAs(
  type: DocumentType,
  buffer: Uint8Array,
  name: string,
  options?: LoadOptions,
): Promise<LoadedDocument> {
  const document = await read(type, buffer, name, resolveLoadOptions(options));
  if (document.text.length === 0) {
    throw new UnreadableDocumentError(
      type === 'pdf' || type === 'docx' ? 'no-text' : 'empty',
      `"${name}" contains no text`,
    );
  }
  return document;
}

function read(
  type: DocumentType,
  buffer: Uint8Array,
  name: string,
  options: LoadOptions,
): Promise<LoadedDocument> {
  switch (type) {
    case 'pdf':
      return loadPdf(buffer, name, options);
    case 'docx':
      return Promise.resolve(loadDocx(buffer, name, options));
    case 'html':
      return Promise.resolve(parseText(() => loadHtml(decodeText(buffer, name)), name, 'HTML'));
    case 'markdown':
      return Promise.resolve(
        parseText(() => loadMarkdown(decodeText(buffer, name)), name, 'Markdown'),
      );
    case 'txt':
      return Promise.resolve({ type: 'txt', text: normalizeText(decodeText(buffer, name)) });
  }
}

/**
 * Runs a text-format parser, turning its own failures into a 422: `marked` overflows the call
 * stack on a few thousand nested blockquotes (`> > > …`), which would otherwise surface as a
 * RangeError and a 500.
 */
function parseText(parse: () => LoadedDocument, name: string, format: string): LoadedDocument {
  try {
    return parse();
  } catch (error) {
    if (ToolkitError.isInstance(error)) throw error;
    throw new UnreadableDocumentError(
      'corrupt',
      `"${name}" could not be read as ${format} (nested too deeply?)`,
      error,
    );
  }
}
