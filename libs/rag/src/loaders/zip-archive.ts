import { ZipFormatError } from './zip-format.error.js';
/** One file of a ZIP archive, as its central directory describes it. */
export interface ZipEntry {
  /** Path inside the archive, e.g. `word/document.xml`. */
  name: string;
  /** Compression method: 0 stored, 8 deflate (others are not read). */
  method: number;
  /** True when the entry is encrypted (general-purpose flag bit 0). */
  encrypted: boolean;
  /** Size of the stored (compressed) bytes. */
  compressedSize: number;
  /** Size the entry declares once inflated; a hostile archive may lie about it. */
  uncompressedSize: number;
  /** Where the entry's local header starts. */
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const MAX_COMMENT = 0xffff;
const SATURATED_32 = 0xffffffff;

/**
 * Lists the entries of a ZIP archive from its central directory (ZIP64 included), reading no
 * entry data: time is linear in the directory's size, whatever the archive holds.
 * Throws a {@link ZipFormatError} when the directory is missing, truncated or inconsistent.
 */
export function readZipDirectory(zip: Uint8Array): ZipEntry[] {
  const bytes = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = findEndOfDirectory(bytes);
  let count = bytes.readUInt16LE(end + 10);
  let size = bytes.readUInt32LE(end + 12);
  let offset = bytes.readUInt32LE(end + 16);
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0) {
    throw new ZipFormatError('multi-disk archives are not supported');
  }
  if (count === 0xffff || size === SATURATED_32 || offset === SATURATED_32) {
    ({ count, size, offset } = readZip64End(bytes, end));
  }
  if (offset + size > end) throw new ZipFormatError('the central directory is out of bounds');
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > offset + size || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new ZipFormatError('the central directory is damaged');
    }
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const next = at + 46 + nameLength + extraLength + bytes.readUInt16LE(at + 32);
    if (next > offset + size) throw new ZipFormatError('the central directory is damaged');
    const entry: ZipEntry = {
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      method: bytes.readUInt16LE(at + 10),
      encrypted: (bytes.readUInt16LE(at + 8) & 1) === 1,
      compressedSize: bytes.readUInt32LE(at + 20),
      uncompressedSize: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
    };
    applyZip64Extra(
      entry,
      bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength),
    );
    entries.push(entry);
    at = next;
  }
  return entries;
}

/**
 * The stored (still compressed) bytes of an entry, a view into `zip` (no copy). Throws a
 * {@link ZipFormatError} when its local header is missing or its data runs past the archive.
 */
export function entryBytes(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const bytes = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) {
    throw new ZipFormatError(`the local header of ${entry.name} is missing`);
  }
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + entry.compressedSize > bytes.length) {
    throw new ZipFormatError(`the data of ${entry.name} is truncated`);
  }
  return bytes.subarray(start, start + entry.compressedSize);
}

/** The end-of-central-directory record: within the last 22 + 65,535 (comment) bytes. */
function findEndOfDirectory(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - 22 - MAX_COMMENT);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) {
    if (
      bytes.readUInt32LE(at) === END_OF_DIRECTORY &&
      at + 22 + bytes.readUInt16LE(at + 20) <= bytes.length
    ) {
      return at;
    }
  }
  throw new ZipFormatError('the end of the central directory is missing (truncated archive?)');
}

function readZip64End(bytes: Buffer, end: number): { count: number; size: number; offset: number } {
  const locator = end - 20;
  if (locator < 0 || bytes.readUInt32LE(locator) !== ZIP64_LOCATOR) {
    throw new ZipFormatError('the ZIP64 end of the central directory is missing');
  }
  const record = safeNumber(bytes.readBigUInt64LE(locator + 8));
  if (record + 56 > locator || bytes.readUInt32LE(record) !== ZIP64_END_OF_DIRECTORY) {
    throw new ZipFormatError('the ZIP64 end of the central directory is damaged');
  }
  return {
    count: safeNumber(bytes.readBigUInt64LE(record + 32)),
    size: safeNumber(bytes.readBigUInt64LE(record + 40)),
    offset: safeNumber(bytes.readBigUInt64LE(record + 48)),
  };
}

/** ZIP64 extra field (id 1): 64-bit values for whichever 32-bit fields are saturated. */
function applyZip64Extra(entry: ZipEntry, extra: Buffer): void {
  const fields = ['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const;
  if (!fields.some((field) => entry[field] === SATURATED_32)) return;
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 1) {
      let value = at + 4;
      for (const field of fields) {
        if (entry[field] !== SATURATED_32) continue;
        if (value + 8 > at + 4 + length || value + 8 > extra.length) break;
        entry[field] = safeNumber(extra.readBigUInt64LE(value));
        value += 8;
      }
      return;
    }
    at += 4 + length;
  }
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ZipFormatError('a ZIP64 size is too large');
  return Number(value);
}
