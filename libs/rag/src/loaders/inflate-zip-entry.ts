import { inflateRawSync } from 'node:zlib';
import { entryBytes, type ZipEntry } from './zip-archive.js';
import { ZipFormatError } from './zip-format.error.js';

/** What {@link inflateZipEntry} returns when the entry would pass the limit. */
export const TOO_LARGE = Symbol('too large');

/**
 * Inflates one ZIP entry, never producing more than `maxBytes`: an entry that declares a larger
 * size is refused before any work, and one that lies about it is cut off by zlib as soon as
 * its output reaches the limit. Returns {@link TOO_LARGE} in both cases.
 *
 * Throws a {@link ZipFormatError} for damaged data or an unsupported compression method
 * (anything but stored or deflate).
 *
 * @example
 * const xml = inflateZipEntry(bytes, entry, 64 * 1024 * 1024);
 * if (xml === TOO_LARGE) throw new DocumentTooLargeError(…);
 */
export function inflateZipEntry(
  zip: Uint8Array,
  entry: ZipEntry,
  maxBytes: number,
): Buffer | typeof TOO_LARGE {
  if (entry.uncompressedSize > maxBytes) return TOO_LARGE;
  const data = entryBytes(zip, entry);
  if (entry.method === 0) {
    return data.length > maxBytes ? TOO_LARGE : Buffer.from(data);
  }
  if (entry.method !== 8) {
    throw new ZipFormatError(`${entry.name} uses unsupported compression method ${entry.method}`);
  }
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    // By code, not `instanceof RangeError`: zlib's error may come from another realm (a VM).
    if (hasCode(error, 'ERR_BUFFER_TOO_LARGE')) return TOO_LARGE;
    throw new ZipFormatError(`the data of ${entry.name} is damaged`, { cause: error });
  }
}

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
