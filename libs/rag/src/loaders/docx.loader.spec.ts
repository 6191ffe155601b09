import { describe, expect, it } from '@jest/globals';
import { constants, deflateRawSync } from 'node:zlib';
import { deflateRepeated } from '../../test/__fixtures__/build-deflate-bomb.js';
import { buildDocx, buildDocxPart, wordDocument } from '../../test/__fixtures__/build-docx.js';
import { buildZip } from '../../test/__fixtures__/build-zip.js';
import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';
import { DocumentTooLargeError, UnreadableDocumentError } from '../rag.errors.js';
import { loadDocx } from './docx.loader.js';
import { loadAs } from './load-document.js';
import { DEFAULT_MAX_INFLATED_BYTES } from './load-options.js';

const MiB = 1024 * 1024;

function thrown(action: () => unknown): ToolkitError {
  try {
    action();
  } catch (error) {
    if (ToolkitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolkitError');
}

/** A DOCX whose body is `size` bytes of spaces (rounded up to MiB), built in ~size/1000 bytes. */
function whitespaceDocx(size: number, declared = size): Buffer {
  const [head, tail] = wordDocument('|').split('|');
  const spaces = deflateRepeated(Buffer.alloc(MiB, 0x20), Math.ceil(size / MiB));
  // Three raw deflate pieces joined: each ends on a byte boundary, only the last is final.
  const bomb = Buffer.concat([
    deflateRawSync(head, { finishFlush: constants.Z_FULL_FLUSH }),
    spaces.subarray(0, -2), // without its empty final block
    deflateRawSync(tail),
  ]);
  return buildDocxPart({ method: 8, data: bomb, size: declared });
}

describe('loadDocx', () => {
  it('reads paragraphs separated by blank lines', () => {
    expect(loadDocx(buildDocx(['Title', 'Body & <more>']), 'a.docx')).toEqual({
      type: 'docx',
      text: 'Title\n\nBody & <more>',
    });
  });

  it('reads a document of 200,000 sibling runs completely and in order', () => {
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i}`);
    const runs = words.map((word) => `<w:r><w:t xml:space="preserve">${word} </w:t></w:r>`);
    const docx = buildDocxPart(wordDocument(`<w:p>${runs.join('')}</w:p>`));
    expect(loadDocx(docx, 'runs.docx').text).toBe(words.join(' '));
  });

  it('refuses a 2 GiB whitespace bomb that admits its size, before inflating it', () => {
    const docx = whitespaceDocx(2048 * MiB);
    expect(docx.length).toBeLessThan(3 * MiB);
    const error = thrown(() => loadDocx(docx, 'spaces.docx'));
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect(error.statusCode).toBe(413);
    expect(error.message).toBe(
      '"spaces.docx" is too large to read: its text part inflates past the limit of 64 MiB ' +
        '(raise maxInflatedBytes to accept it)',
    );
    expect(error.toJSON()).toMatchObject({ code: 'document_too_large', limit: 64 * MiB });
  });

  it('stops a bomb that lies about its size at the limit, never holding more', () => {
    const docx = whitespaceDocx(1024 * MiB, 1000);
    const before = process.resourceUsage().maxRSS;
    const error = thrown(() =>
      loadDocx(docx, 'liar.docx', { maxInflatedBytes: 8 * MiB, limitSetting: 'rag.max_inflated' }),
    );
    // maxRSS is a high-water mark in KiB: inflating the gigabyte would raise it by over 1 GiB.
    expect((process.resourceUsage().maxRSS - before) * 1024).toBeLessThan(8 * MiB * 8);
    expect(error.message).toContain('limit of 8 MiB (raise rag.max_inflated to accept it)');
  });

  it('reads a document part of exactly the limit and refuses one byte more', () => {
    const xml = wordDocument('<w:p><w:r><w:t>fits</w:t></w:r></w:p>');
    const size = Buffer.byteLength(xml);
    const docx = buildDocxPart(xml);
    expect(loadDocx(docx, 'a.docx', { maxInflatedBytes: size }).text).toBe('fits');
    expect(thrown(() => loadDocx(docx, 'a.docx', { maxInflatedBytes: size - 1 }))).toBeInstanceOf(
      DocumentTooLargeError,
    );
  });

  it('reads whitespace under the limit to empty text (a 422 from loadAs)', async () => {
    const docx = whitespaceDocx(2 * MiB);
    expect(loadDocx(docx, 'blank.docx').text).toBe('');
    await expect(loadAs('docx', docx, 'blank.docx')).rejects.toMatchObject({
      statusCode: 422,
      reason: 'no-text',
    });
  });

  it.each([
    ['no word/document.xml', buildZip({ 'word/other.xml': '<x/>' }), 'corrupt'],
    ['malformed XML', buildDocxPart(wordDocument('<w:p><w:r></w:p></w:r>')), 'corrupt'],
    [
      'a damaged deflate stream',
      buildDocxPart({ method: 8, data: Buffer.from([0xff]), size: 9 }),
      'corrupt',
    ],
  ])('refuses %s as unreadable', (_label, docx, reason) => {
    const error = thrown(() => loadDocx(docx, 'bad.docx'));
    expect(error).toBeInstanceOf(UnreadableDocumentError);
    expect(error).toMatchObject({
      statusCode: 422,
      reason,
      message: '"bad.docx" is not a readable DOCX file',
    });
  });

  it('refuses an encrypted document part as password-protected', () => {
    const docx = buildDocx(['secret']);
    // The last mention of the name is in the central directory, 46 bytes after its entry starts.
    const central = docx.lastIndexOf(Buffer.from('word/document.xml')) - 46;
    docx.writeUInt16LE(docx.readUInt16LE(central + 8) | 1, central + 8);
    expect(thrown(() => loadDocx(docx, 'locked.docx'))).toMatchObject({ reason: 'encrypted' });
  });

  it('applies the 64 MiB default and passes options through loadAs', async () => {
    expect(DEFAULT_MAX_INFLATED_BYTES).toBe(64 * MiB);
    await expect(
      loadAs('docx', buildDocx(['a long enough paragraph']), 'a.docx', { maxInflatedBytes: 100 }),
    ).rejects.toBeInstanceOf(DocumentTooLargeError);
  });
});
