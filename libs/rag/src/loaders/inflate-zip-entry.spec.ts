import { describe, expect, it } from '@jest/globals';
import { deflateRawSync } from 'node:zlib';
import { deflateRepeated } from '../../test/__fixtures__/build-deflate-bomb.js';
import { buildZip } from '../../test/__fixtures__/build-zip.js';
import { inflateZipEntry, TOO_LARGE } from './inflate-zip-entry.js';
import { readZipDirectory } from './zip-archive.js';
import { ZipFormatError } from './zip-format.error.js';

const MiB = 1024 * 1024;

function only(zip: Buffer) {
  const [entry] = readZipDirectory(zip);
  return { zip, entry };
}

describe('inflateZipEntry', () => {
  it('inflates deflated and stored entries up to exactly the limit', () => {
    const text = 'x'.repeat(1000);
    const deflated = only(buildZip({ 'a.txt': text }));
    expect(inflateZipEntry(deflated.zip, deflated.entry, 1000)?.toString()).toBe(text);
    expect(inflateZipEntry(deflated.zip, deflated.entry, 999)).toBe(TOO_LARGE);
    const stored = only(buildZip({ 'a.txt': { method: 0, data: Buffer.from(text), size: 1000 } }));
    expect(inflateZipEntry(stored.zip, stored.entry, 1000)?.toString()).toBe(text);
    expect(inflateZipEntry(stored.zip, stored.entry, 999)).toBe(TOO_LARGE);
  });

  it('refuses an entry that declares more than the limit without reading its data', () => {
    // The data is garbage: inflating it would throw, so TOO_LARGE proves it was never touched.
    const { zip, entry } = only(
      buildZip({ 'a.txt': { method: 8, data: Buffer.from([0xff, 0xff]), size: 2 * MiB } }),
    );
    expect(inflateZipEntry(zip, entry, MiB)).toBe(TOO_LARGE);
  });

  it('cuts off an entry that lies about its size as soon as the limit is reached', () => {
    // 1 GiB of spaces in ~1 MB, declaring 100 bytes.
    const bomb = deflateRepeated(Buffer.alloc(MiB, 0x20), 1024);
    const { zip, entry } = only(buildZip({ 'a.txt': { method: 8, data: bomb, size: 100 } }));
    const before = process.resourceUsage().maxRSS;
    expect(inflateZipEntry(zip, entry, 4 * MiB)).toBe(TOO_LARGE);
    // maxRSS is a high-water mark (KiB): inflating the gigabyte would have raised it by ~1 GiB.
    expect((process.resourceUsage().maxRSS - before) * 1024).toBeLessThan(64 * MiB);
  });

  it('throws ZipFormatError for damaged data and unsupported methods', () => {
    const damaged = only(
      buildZip({
        'a.txt': { method: 8, data: deflateRawSync('x'.repeat(500)).subarray(0, 3), size: 500 },
      }),
    );
    expect(() => inflateZipEntry(damaged.zip, damaged.entry, MiB)).toThrow(ZipFormatError);
    const { zip, entry } = only(buildZip({ 'a.txt': 'text' }));
    expect(() => inflateZipEntry(zip, { ...entry, method: 12 }, MiB)).toThrow(ZipFormatError);
  });
});
