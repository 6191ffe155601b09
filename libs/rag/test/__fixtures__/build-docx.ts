import { buildZip, type RawZipEntry } from './build-zip.js';

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The WordprocessingML namespace, bound to `w:` by {@link wordDocument}. */
export const W_NAMESPACE = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A minimal Word document: one `w:p` per paragraph, optionally a heading style on the first. */
export function buildDocx(paragraphs: string[]): Buffer {
  const body = paragraphs
    .map((text) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`)
    .join('');
  return buildDocxPart(wordDocument(body));
}

/** A `word/document.xml` around `body` (WordprocessingML markup, the `w:` prefix bound). */
export function wordDocument(body: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    `<w:document xmlns:w="${W_NAMESPACE}" ` +
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ' +
    'xmlns:v="urn:schemas-microsoft-com:vml">' +
    `<w:body>${body}</w:body></w:document>`
  );
}

/**
 * A DOCX package whose `word/document.xml` is exactly `documentXml`: a string (deflated as
 * usual) or a {@link RawZipEntry} for hostile archives (bombs, lying sizes).
 */
export function buildDocxPart(documentXml: string | RawZipEntry): Buffer {
  return buildZip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
    'word/document.xml': documentXml,
  });
}
