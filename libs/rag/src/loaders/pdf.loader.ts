import { getDocumentProxy } from 'unpdf';
import type { DocumentPage, LoadedDocument } from '../document.types.js';
import { UnreadableDocumentError } from '../rag.errors.js';
import { type LoadOptions, resolveLoadOptions } from './load-options.js';
import { assertPdfInflatesWithin } from './pdf-inflate-guard.js';
import { normalizeText } from './text-decoding.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/** A line break followed by a vertical gap this many times the font size starts a paragraph. */
const PARAGRAPH_GAP = 1.9;

/**
 * Extracts the text layer of a PDF with PDF.js (through `unpdf`), page by page. Lines that are
 * set apart by a larger vertical gap become separate paragraphs. Pages are joined by a blank line
 * and reported with their offsets, so chunks can name their page.
 *
 * Password-protected → 422 (`encrypted`); unparsable → 422 (`corrupt`); no text at all (a scan
 * without OCR) → 422 (`no-text`); compressed streams that would inflate past
 * `options.maxInflatedBytes` → 413 `DocumentTooLargeError`, found before PDF.js runs.
 */
export async function loadPdf(
  buffer: Uint8Array,
  name: string,
  options?: LoadOptions,
): Promise<LoadedDocument> {
  await assertPdfInflatesWithin(buffer, name, resolveLoadOptions(options));
  let pdf: PdfDocument;
  try {
    // A copy: PDF.js may take ownership of (detach) the bytes it is given.
    pdf = await getDocumentProxy(new Uint8Array(buffer), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    throw pdfError(error, name);
  }
  try {
    const pages: DocumentPage[] = [];
    let text = '';
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const pageText = normalizeText(await pageTextOf(await pdf.getPage(number)));
      if (text.length > 0) text += '\n\n';
      pages.push({
        number,
        text: pageText,
        start: text.length,
        end: text.length + pageText.length,
      });
      text += pageText;
    }
    if (text.trim().length === 0) {
      throw new UnreadableDocumentError(
        'no-text',
        `"${name}" has no extractable text (scanned PDF?)`,
      );
    }
    return { type: 'pdf', text, pages };
  } catch (error) {
    throw pdfError(error, name);
  } finally {
    await pdf.destroy();
  }
}

async function pageTextOf(page: PdfPage): Promise<string> {
  const content = await page.getTextContent();
  let out = '';
  let lineY: number | undefined;
  let lineBreak = false;
  for (const item of content.items) {
    if (!('str' in item)) continue;
    // PDF.js types the matrix as any[]: [a, b, c, d, e, f], f being the baseline's y.
    const [, , c, d, , y] = item.transform as number[];
    const size = Math.hypot(c, d) || 12;
    if (lineBreak && lineY !== undefined && Math.abs(lineY - y) > PARAGRAPH_GAP * size) out += '\n';
    out += item.str;
    if (item.hasEOL) out += '\n';
    lineBreak = item.hasEOL;
    lineY = y;
  }
  return out;
}

function pdfError(error: unknown, name: string): Error {
  if (UnreadableDocumentError.isInstance(error)) return error;
  // PDF.js errors are not `Error` subclasses in every build: recognise them by name.
  const kind = typeof error === 'object' && error !== null && 'name' in error ? error.name : '';
  if (kind === 'PasswordException') {
    return new UnreadableDocumentError('encrypted', `"${name}" is password-protected`, error);
  }
  return new UnreadableDocumentError('corrupt', `"${name}" is not a readable PDF`, error);
}
