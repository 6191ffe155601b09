import { crc32, deflateRawSync } from 'node:zlib';

/**
 * An entry whose bytes are given as stored in the archive: already deflated (`method: 8`) or
 * stored as is (`method: 0`), with the sizes to write in the headers. Lets a test build
 * archives no honest writer would: a bomb deflated without ever materialising its content, or
 * headers that lie about the inflated size.
 */
export interface RawZipEntry {
  /** 0 stored, 8 deflate. */
  method: 0 | 8;
  /** The bytes as they go into the archive. */
  data: Buffer;
  /** The inflated size the headers declare. */
  size: number;
  /** The CRC-32 the headers declare. @default 0 */
  crc?: number;
}

/**
 * Writes a ZIP archive (deflate, no extras) from name → content pairs: enough for a DOCX that
 * Word, LibreOffice and mammoth open. A {@link RawZipEntry} is written as given.
 */
export function buildZip(entries: Record<string, string | Buffer | RawZipEntry>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const { method, data: packed, size, crc } = rawEntry(content);
    const fileName = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function rawEntry(content: string | Buffer | RawZipEntry): Required<RawZipEntry> {
  if (typeof content === 'string' || Buffer.isBuffer(content)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return { method: 8, data: deflateRawSync(data), size: data.length, crc: crc32(data) };
  }
  return { crc: 0, ...content };
}
