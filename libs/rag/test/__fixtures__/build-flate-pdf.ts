/** Options of {@link buildFlatePdf}. */
export interface FlatePdfOptions {
  /** Write the stream's `/Length` as an indirect object (`/Length 5 0 R`) instead of a number. */
  indirectLength?: boolean;
  /** Label the content stream an image XObject (a lie PDF.js ignores: it is still content). */
  image?: boolean;
}

/**
 * A one-page PDF 1.4 whose content stream is `deflated` (zlib data, `/Filter /FlateDecode`)
 * as given: with `deflateRepeated` it makes a "flate bomb", a small file whose content
 * inflates to hundreds of megabytes. Correct xref table; Helvetica as `/F1`.
 *
 * @example
 * buildFlatePdf(deflateRepeated(Buffer.from('BT /F1 12 Tf (x) Tj ET\n'.repeat(4096)), 3000, { zlib: true }));
 */
export function buildFlatePdf(deflated: Buffer, options: FlatePdfOptions = {}): Buffer {
  const length = options.indirectLength ? '6 0 R' : String(deflated.length);
  const kind = options.image
    ? '/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 '
    : '';
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
        '/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.concat([
      Buffer.from(`<< ${kind}/Length ${length} /Filter /FlateDecode >>\nstream\n`),
      deflated,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from(String(deflated.length)),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let size = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    size += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(size),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}
