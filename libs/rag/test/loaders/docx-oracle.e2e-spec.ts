import { readFile } from 'node:fs/promises';
import { describe, expect, it } from '@jest/globals';
import { loadDocx } from '../../src/loaders/docx.loader.js';
import { CORPUS } from '../__fixtures__/corpus.js';
import { buildDocx, buildDocxPart, wordDocument } from '../__fixtures__/build-docx.js';
import { comparableText, mammothText } from '../support/docx-oracle.js';

const fixture = (name: string) => readFile(new URL(`../__fixtures__/${name}`, import.meta.url));

/** Word features a DOCX writer produces: tables, fields, revisions, links, text boxes. */
const RICH = buildDocxPart(
  wordDocument(
    '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Travel policy</w:t></w:r></w:p>' +
      '<w:p><w:r><w:t xml:space="preserve">Book trains </w:t></w:r><w:ins w:id="1"><w:r>' +
      '<w:t>early</w:t></w:r></w:ins><w:del w:id="2"><w:r><w:delText>late</w:delText></w:r></w:del>' +
      '<w:r><w:t xml:space="preserve">; see page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/>' +
      '</w:r><w:r><w:instrText xml:space="preserve"> PAGEREF _Ref1 \\h </w:instrText></w:r><w:r>' +
      '<w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>4</w:t></w:r><w:r>' +
      '<w:fldChar w:fldCharType="end"/></w:r><w:r><w:t>.</w:t></w:r></w:p>' +
      '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Class</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r>' +
      '<w:t>Allowed</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>First</w:t>' +
      '</w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Board only</w:t></w:r></w:p></w:tc></w:tr></w:tbl>' +
      '<w:p><w:hyperlink w:anchor="x"><w:r><w:t>Expense form</w:t></w:r></w:hyperlink><w:r>' +
      '<w:tab/><w:t>Caf&#233; &amp; taxi</w:t></w:r></w:p>' +
      '<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:t>choice</w:t></mc:Choice>' +
      '<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>Boxed note</w:t>' +
      '</w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>' +
      '</mc:AlternateContent></w:r></w:p>',
  ),
);

describe('the DOCX reader agrees with mammoth (the reference) on the text', () => {
  it.each([
    [
      'a built handbook',
      () => Promise.resolve(buildDocx(['Employee handbook', 'Überstunden & <tags>'])),
    ],
    ['Word features: revisions, fields, tables, links, text boxes', () => Promise.resolve(RICH)],
    [
      'a LibreOffice DOCX (headings, lists, table, links, line breaks)',
      () => fixture('libreoffice-handbook.docx'),
    ],
    ...CORPUS.map((doc): [string, () => Promise<Buffer>] => [
      `corpus: ${doc.name}`,
      () => Promise.resolve(buildDocx(doc.paragraphs)),
    ]),
  ])('%s', async (_label, read) => {
    const docx = await read();
    const ours = loadDocx(docx, 'doc.docx').text;
    expect(ours.length).toBeGreaterThan(0);
    expect(comparableText(ours)).toBe(comparableText(await mammothText(docx)));
  });

  it('keeps the paragraphs mammoth finds, one blank line apart', async () => {
    const docx = await fixture('libreoffice-handbook.docx');
    const paragraphs = (text: string) =>
      text
        .split(/\n{2,}/)
        .map((p) => p.replace(/\s+/g, ''))
        .filter((p) => p.length > 0);
    expect(paragraphs(loadDocx(docx, 'h.docx').text)).toEqual(paragraphs(await mammothText(docx)));
  });
});
