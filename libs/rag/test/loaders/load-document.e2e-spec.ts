import { readFile } from 'node:fs/promises';
import { describe, expect, it } from '@jest/globals';
import { extractText, getDocumentProxy } from 'unpdf';
import { loadDocument } from '../../src/loaders/load-document.js';
import { rejection } from '../support/rejection.js';
import { buildDocx } from '../__fixtures__/build-docx.js';
import { buildPdf } from '../__fixtures__/build-pdf.js';
import { buildPng } from '../__fixtures__/build-png.js';
import { buildZip } from '../__fixtures__/build-zip.js';

const fixture = (name: string) => readFile(new URL(`../__fixtures__/${name}`, import.meta.url));

const TWO_PAGES = [
  [
    ['Quarterly report for the garden club.'],
    ['Tomato yield rose by', 'twelve percent this year.'],
  ],
  [['Page two covers the budget: caf\xe9 costs fell.']],
];

describe('loadDocument', () => {
  it('reads a two-page PDF with page offsets and paragraph breaks', async () => {
    const doc = await loadDocument(buildPdf(TWO_PAGES), 'report.pdf');
    expect(doc.type).toBe('pdf');
    expect(doc.pages).toHaveLength(2);
    const [one, two] = doc.pages!;
    expect(one.text).toBe(
      'Quarterly report for the garden club.\n\nTomato yield rose by\ntwelve percent this year.',
    );
    expect(two).toMatchObject({ number: 2, text: 'Page two covers the budget: café costs fell.' });
    expect(doc.text.slice(one.start, one.end)).toBe(one.text);
    expect(doc.text.slice(two.start, two.end)).toBe(two.text);
    expect(doc.text).toBe(`${one.text}\n\n${two.text}`);
  });

  it('reads a DOCX into paragraphs', async () => {
    const docx = buildDocx([
      'Employee handbook',
      'Vacation: 25 days per year.',
      'Überstunden & <tags>',
    ]);
    const doc = await loadDocument(docx, 'handbook.docx');
    expect(doc).toEqual({
      type: 'docx',
      text: 'Employee handbook\n\nVacation: 25 days per year.\n\nÜberstunden & <tags>',
    });
  });

  it('reads HTML without script, style, nav or noscript, keeping blocks apart', async () => {
    const doc = await loadDocument(await fixture('page.html'), 'page.html');
    expect(doc.type).toBe('html');
    expect(doc.text).toBe(
      [
        'Greenhouse guide',
        'Growing tomatoes',
        'Tomatoes need six hours of sun a day.',
        'Water them at the base,\nnever on the leaves.',
        'Stake the plants early',
        'Pinch the side shoots',
      ].join('\n\n'),
    );
  });

  it('reads Markdown without its syntax or front matter', async () => {
    const doc = await loadDocument(await fixture('notes.md'), 'notes.md');
    expect(doc.type).toBe('markdown');
    expect(doc.text).toBe(
      [
        'Release notes',
        'Version 2.4 adds offline search. See the docs for details.',
        'Fixes',
        'Uploads over the limit now fail with 413.',
        'Empty files are refused.',
        "const answer = await index.search('pricing');",
        'Plan Price',
        'Free 0 €',
      ].join('\n\n'),
    );
  });

  it('reads UTF-8 text with non-ASCII characters and CRLF line endings', async () => {
    const doc = await loadDocument(await fixture('unicode.txt'), 'unicode.txt');
    expect(doc).toEqual({
      type: 'txt',
      text: 'Crème brûlée — naïve café façade.\nZürich, Ærøskøbing, Łódź, 東京, Москва.\n\nSecond paragraph: ½ € ✓',
    });
  });

  it('reads UTF-16 text with a BOM and detects types without an extension', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Grüße aus Köln', 'utf16le'),
    ]);
    expect((await loadDocument(utf16, 'greeting.txt')).text).toBe('Grüße aus Köln');
    expect((await loadDocument(buildPdf(TWO_PAGES), 'upload')).type).toBe('pdf');
    expect((await loadDocument(Buffer.from('<!doctype html><p>Hi</p>'), 'upload')).text).toBe('Hi');
    expect((await loadDocument(Buffer.from('plain words'), 'README')).type).toBe('txt');
  });

  it('uses a genuine encrypted PDF fixture: it opens with its password', async () => {
    const bytes = new Uint8Array(buildPdf(TWO_PAGES, { userPassword: 's3cret' }));
    const pdf = await getDocumentProxy(bytes, { password: 's3cret', verbosity: 0 });
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain('Page two covers the budget');
  });

  describe('bad input → clear 4xx errors', () => {
    it.each([
      [
        'a PNG renamed .pdf',
        buildPng(),
        'scan.pdf',
        415,
        '"scan.pdf" claims to be PDF but its content is a PNG image',
      ],
      [
        'a PDF renamed .txt',
        buildPdf(TWO_PAGES),
        'notes.txt',
        415,
        '"notes.txt" claims to be a text file but its content is a PDF document',
      ],
      [
        'a plain ZIP renamed .docx',
        buildZip({ 'a.txt': 'x' }),
        'x.docx',
        415,
        '"x.docx" claims to be DOCX but its content is a ZIP archive',
      ],
      [
        'binary bytes in a .txt',
        Buffer.from([0x41, 0x00, 0x42, 0xff]),
        'data.txt',
        415,
        '"data.txt" claims to be a text file but its content is binary data',
      ],
      [
        'an unsupported extension',
        Buffer.from('hello'),
        'run.exe',
        415,
        '"run.exe": unsupported file type ".exe" (supported: .pdf, .docx, .txt, .md, .html)',
      ],
      [
        'a PNG without extension',
        buildPng(),
        'image',
        415,
        '"image": unsupported content, a PNG image (supported: .pdf, .docx, .txt, .md, .html)',
      ],
      ['an empty file', Buffer.alloc(0), 'empty.pdf', 422, '"empty.pdf" is empty'],
      [
        'a whitespace-only text file',
        Buffer.from(' \n\t\n'),
        'blank.md',
        422,
        '"blank.md" contains no text',
      ],
      [
        'a corrupt PDF',
        Buffer.from('%PDF-1.7\n\x00\x01 garbage, no objects, no xref'),
        'broken.pdf',
        422,
        '"broken.pdf" is not a readable PDF',
      ],
      [
        'a truncated PDF',
        buildPdf(TWO_PAGES).subarray(0, 200),
        'cut.pdf',
        422,
        '"cut.pdf" is not a readable PDF',
      ],
      [
        'a password-protected PDF',
        buildPdf(TWO_PAGES, { userPassword: 's3cret' }),
        'locked.pdf',
        422,
        '"locked.pdf" is password-protected',
      ],
      [
        'a corrupt DOCX',
        Buffer.concat([buildDocx(['x']).subarray(0, 60), Buffer.from('word/document.xml')]),
        'bad.docx',
        422,
        '"bad.docx" is not a readable DOCX file',
      ],
      [
        'a DOCX cut before its document part',
        buildDocx(['x']).subarray(0, 200),
        'cut.docx',
        422,
        '"cut.docx" is not a readable DOCX file: the archive is truncated or damaged',
      ],
      [
        'a DOCX cut in its central directory',
        buildDocx(['x']).subarray(0, -30),
        'end.docx',
        422,
        '"end.docx" is not a readable DOCX file',
      ],
      [
        'a path-traversal name',
        buildPng(),
        '../../etc/passwd.pdf',
        415,
        '"passwd.pdf" claims to be PDF but its content is a PNG image',
      ],
    ])('%s', async (_label, bytes, name, status, message) => {
      const error = await rejection(loadDocument(bytes, name));
      expect(error.statusCode).toBe(status);
      expect(error.message).toBe(message);
    });
  });
});
