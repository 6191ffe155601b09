import { describe, expect, it } from '@jest/globals';
import { deflateSync } from 'node:zlib';
import { deflateRepeated } from '../../test/__fixtures__/build-deflate-bomb.js';
import { buildFlatePdf } from '../../test/__fixtures__/build-flate-pdf.js';
import { rejection } from '../../test/support/rejection.js';
import { DocumentTooLargeError } from '../rag.errors.js';
import { loadDocument } from './load-document.js';
import { resolveLoadOptions } from './load-options.js';
import { assertPdfInflatesWithin } from './pdf-inflate-guard.js';

const MiB = 1024 * 1024;
/** Text operators, 1 MiB of them: what a hostile content stream inflates to, repeated. */
const OPERATORS = Buffer.from('BT /F1 12 Tf 72 700 Td (flood) Tj ET\n'.repeat(28_340));

/** A PDF whose one content stream inflates to about `size` bytes of text operators. */
const bombPdf = (size: number, options = {}) =>
  buildFlatePdf(
    deflateRepeated(OPERATORS, Math.ceil(size / OPERATORS.length), { zlib: true }),
    options,
  );

describe('assertPdfInflatesWithin', () => {
  it('refuses a 0.9 MB PDF whose content inflates to 300 MB, without holding the 300 MB', async () => {
    const pdf = bombPdf(300 * MiB);
    expect(pdf.length).toBeLessThan(MiB);
    const before = process.resourceUsage().maxRSS;
    const error = await rejection(loadDocument(pdf, 'bomb.pdf', { maxInflatedBytes: 16 * MiB }));
    // maxRSS is a high-water mark in KiB: 300 MB inflated (or parsed by PDF.js) would raise it.
    expect((process.resourceUsage().maxRSS - before) * 1024).toBeLessThan(4 * 16 * MiB);
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect(error.statusCode).toBe(413);
    expect(error.message).toBe(
      '"bomb.pdf" is too large to read: its compressed content inflates past the limit of ' +
        '16 MiB (raise maxInflatedBytes to accept it)',
    );
  });

  it('counts streams whatever they claim to be, and with an indirect /Length', async () => {
    const options = resolveLoadOptions({ maxInflatedBytes: MiB });
    for (const pdf of [
      bombPdf(2 * MiB, { image: true }),
      bombPdf(2 * MiB, { indirectLength: true }),
    ]) {
      await expect(assertPdfInflatesWithin(pdf, 'x.pdf', options)).rejects.toBeInstanceOf(
        DocumentTooLargeError,
      );
    }
  });

  it('counts what a truncated or damaged stream yields before it breaks', async () => {
    const options = resolveLoadOptions({ maxInflatedBytes: MiB });
    const stream = deflateRepeated(OPERATORS, 4, { zlib: true }); // 4 MiB
    const truncated = buildFlatePdf(stream.subarray(0, stream.length / 2));
    const damaged = buildFlatePdf(
      Buffer.concat([stream.subarray(0, -6), Buffer.from([0xff, 0xff])]),
    );
    for (const pdf of [truncated, damaged]) {
      await expect(assertPdfInflatesWithin(pdf, 'x.pdf', options)).rejects.toBeInstanceOf(
        DocumentTooLargeError,
      );
    }
  });

  it('accepts content up to the limit, and streams that are not zlib data', async () => {
    const content = Buffer.from('BT /F1 12 Tf 72 700 Td (Hello) Tj ET');
    const exact = resolveLoadOptions({ maxInflatedBytes: content.length });
    await expect(
      assertPdfInflatesWithin(buildFlatePdf(deflateSync(content)), 'a.pdf', exact),
    ).resolves.toBeUndefined();
    const under = resolveLoadOptions({ maxInflatedBytes: content.length - 1 });
    await expect(
      assertPdfInflatesWithin(buildFlatePdf(deflateSync(content)), 'a.pdf', under),
    ).rejects.toBeInstanceOf(DocumentTooLargeError);
    await expect(
      assertPdfInflatesWithin(buildFlatePdf(Buffer.from('not zlib')), 'a.pdf', under),
    ).resolves.toBeUndefined();
  });

  it('lets loadDocument read a small flate-compressed PDF under the default limit', async () => {
    const pdf = buildFlatePdf(deflateSync('BT /F1 12 Tf 72 700 Td (Hello flate) Tj ET'));
    await expect(loadDocument(pdf, 'ok.pdf')).resolves.toMatchObject({ text: 'Hello flate' });
  });
});
