import { describe, expect, it } from '@jest/globals';
import { deflateSync } from 'node:zlib';
import { buildFlatePdf } from '../../test/__fixtures__/build-flate-pdf.js';
import { buildPdf } from '../../test/__fixtures__/build-pdf.js';
import { findPdfStreams } from './pdf-streams.js';

const data = (pdf: Buffer) => [...findPdfStreams(pdf)].map((s) => pdf.subarray(s.start, s.end));

describe('findPdfStreams', () => {
  it('finds each page content stream of a PDF with its dictionary and exact data', () => {
    const pdf = buildPdf([[['Page one']], [['Page two']]]);
    const streams = [...findPdfStreams(pdf)];
    expect(streams).toHaveLength(2);
    expect(streams[0].dictionary).toMatch(/^\n<< \/Length \d+ >>\n$/);
    expect(data(pdf).map((d) => d.toString('latin1'))).toEqual([
      expect.stringContaining('(Page one) Tj'),
      expect.stringContaining('(Page two) Tj'),
    ]);
  });

  it('takes the extent from a direct or an indirect /Length, even past a false "endstream"', () => {
    // Binary data that happens to contain the keyword: only /Length finds the real end.
    const content = Buffer.concat([deflateSync('BT ET'), Buffer.from('endstream tail')]);
    for (const indirectLength of [false, true]) {
      const pdf = buildFlatePdf(content, { indirectLength });
      expect(data(pdf)).toEqual([content]);
    }
  });

  it('falls back to the next "endstream" when /Length is wrong or missing', () => {
    const pdf = buildFlatePdf(deflateSync('BT ET'));
    const wrong = Buffer.from(
      pdf.toString('latin1').replace(/\/Length \d+/, '/Length 3'),
      'latin1',
    );
    // Up to the keyword: the newline before "endstream" belongs to the data here.
    expect(data(wrong)).toEqual([Buffer.concat([deflateSync('BT ET'), Buffer.from('\n')])]);
    const cut = pdf.subarray(0, pdf.indexOf('endstream'));
    expect(data(cut)[0].length).toBeGreaterThan(0);
  });

  it('ignores "stream" inside names and words, and "endstream"', () => {
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /streams 1 >> endobj\n(mainstream\n) endstream\n',
    );
    expect([...findPdfStreams(pdf)]).toEqual([]);
  });
});
