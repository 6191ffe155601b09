import { createHash } from 'node:crypto';

/** One page of a hand-built PDF: paragraphs of lines (WinAnsi text, so Latin-1 accents work). */
export type PdfPage = string[][];

/** Options of {@link buildPdf}. */
export interface BuildPdfOptions {
  /** Protect the file with this user password (RC4 40-bit, standard security handler R2). */
  userPassword?: string;
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

/**
 * Writes a valid PDF 1.4 by hand: Helvetica text, one content stream per page, paragraphs set
 * apart by a larger vertical gap, a correct xref table. With `userPassword` it is encrypted the
 * way Acrobat 3 did (enough for any reader to demand the password).
 */
export function buildPdf(pages: PdfPage[], options: BuildPdfOptions = {}): Buffer {
  const objects: (string | Buffer)[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const id = createHash('md5').update(JSON.stringify(pages)).digest();
  const security =
    options.userPassword === undefined ? undefined : rc4Security(options.userPassword, id);

  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((n) => `${n} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((paragraphs, i) => {
    const pageId = pageIds[i];
    const contentId = pageId + 1;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    let stream: Buffer = Buffer.from(contentStream(paragraphs), 'latin1');
    if (security) stream = rc4(objectKey(security.key, contentId), stream);
    objects[contentId] = Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  });
  const encryptId = objects.length;
  if (security) {
    objects[encryptId] =
      `<< /Filter /Standard /V 1 /R 2 /Length 40 /P ${security.permissions} ` +
      `/O <${security.o.toString('hex')}> /U <${security.u.toString('hex')}> >>`;
  }

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  for (let n = 1; n < objects.length; n += 1) {
    offsets[n] = length;
    const body = objects[n];
    const chunk = Buffer.concat([
      Buffer.from(`${n} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  }
  const xref = [
    'xref',
    `0 ${objects.length}`,
    '0000000000 65535 f ',
    ...offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length} /Root 1 0 R` +
      (security ? ` /Encrypt ${encryptId} 0 R` : '') +
      ` /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function contentStream(paragraphs: string[][]): string {
  const ops = ['BT', '/F1 12 Tf', '72 740 Td'];
  paragraphs.forEach((lines, p) => {
    if (p > 0) ops.push('0 -14 Td');
    lines.forEach((line, l) => {
      if (p > 0 || l > 0) ops.push('0 -16 Td');
      ops.push(`(${line.replace(/([\\()])/g, '\\$1')}) Tj`);
    });
  });
  ops.push('ET');
  return ops.join('\n');
}

interface Rc4Security {
  key: Buffer;
  o: Buffer;
  u: Buffer;
  permissions: number;
}

function rc4Security(userPassword: string, id: Buffer): Rc4Security {
  const permissions = -44;
  const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
  const md5 = (...data: Buffer[]) => data.reduce((h, d) => h.update(d), createHash('md5')).digest();
  // Algorithm 3: owner entry (owner password = user password here).
  const o = rc4(md5(padded(userPassword)).subarray(0, 5), padded(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  // Algorithm 2: file key; Algorithm 4: user entry.
  const key = md5(padded(userPassword), o, p, id).subarray(0, 5);
  return { key, o, u: rc4(key, PAD), permissions };
}

function objectKey(key: Buffer, objectNumber: number): Buffer {
  const suffix = Buffer.from([
    objectNumber & 0xff,
    (objectNumber >> 8) & 0xff,
    (objectNumber >> 16) & 0xff,
    0,
    0,
  ]);
  return createHash('md5')
    .update(Buffer.concat([key, suffix]))
    .digest()
    .subarray(0, key.length + 5);
}

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i += 1) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n += 1) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}
