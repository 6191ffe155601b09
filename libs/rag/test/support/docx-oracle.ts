import mammoth from 'mammoth';

/**
 * The reference reading of a DOCX: mammoth's `extractRawText` (a devDependency kept only for
 * this), which the loader's own bounded reader is compared with. Never use it on untrusted
 * files outside tests: its XML parser is quadratic on sibling-heavy documents.
 *
 * @example
 * expect(comparableText(loadDocx(bytes, 'a.docx').text)).toBe(comparableText(await mammothText(bytes)));
 */
export async function mammothText(docx: Uint8Array): Promise<string> {
  const result = await mammoth.extractRawText({ buffer: Buffer.from(docx) });
  return result.value;
}

/**
 * Text reduced to what both readers must agree on: every run of whitespace removed, and soft
 * hyphens. Whitespace differs by design: mammoth drops `w:br` (gluing the words on either side
 * together) where the loader writes a line break, and the loader normalises blank lines.
 * Other known differences, absent from ordinary documents: mammoth renders `w:sym` symbols and
 * skips `w:fldSimple`, `w:dir` and `w:bdo` content, which the loader reads the other way round.
 */
export function comparableText(text: string): string {
  return text.replace(/[\s\u00ad]+/g, '');
}
