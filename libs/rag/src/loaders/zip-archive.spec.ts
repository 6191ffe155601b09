import { describe, expect, it } from '@jest/globals';
import { buildZip } from '../../test/__fixtures__/build-zip.js';
import { entryBytes, readZipDirectory } from './zip-archive.js';
import { ZipFormatError } from './zip-format.error.js';

describe('readZipDirectory', () => {
  it('lists every entry with its method and declared sizes', () => {
    const zip = buildZip({
      'a.txt': 'hello hello hello',
      'dir/b.xml': { method: 0, data: Buffer.from('<b/>'), size: 4 },
    });
    expect(readZipDirectory(zip)).toEqual([
      expect.objectContaining({ name: 'a.txt', method: 8, encrypted: false, uncompressedSize: 17 }),
      expect.objectContaining({
        name: 'dir/b.xml',
        method: 0,
        compressedSize: 4,
        uncompressedSize: 4,
      }),
    ]);
  });

  it('finds the directory behind an archive comment and reads entries from a view', () => {
    const zip = buildZip({ 'a.txt': 'x' });
    const comment = Buffer.from('a comment');
    zip.writeUInt16LE(comment.length, zip.length - 2);
    const padded = Buffer.concat([Buffer.from('junk'), zip, comment]);
    const view = padded.subarray(4);
    const [entry] = readZipDirectory(view);
    expect(entry.name).toBe('a.txt');
    expect(entryBytes(view, entry).length).toBe(entry.compressedSize);
  });

  it('throws ZipFormatError when the end record, the directory or a local header is damaged', () => {
    const zip = buildZip({ 'a.txt': 'some text' });
    expect(() => readZipDirectory(zip.subarray(0, -10))).toThrow(ZipFormatError);
    const badDirectory = Buffer.from(zip);
    badDirectory.writeUInt32LE(0, badDirectory.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    expect(() => readZipDirectory(badDirectory)).toThrow(ZipFormatError);
    const badOffset = Buffer.from(zip);
    badOffset.writeUInt32LE(zip.length, zip.length - 6);
    expect(() => readZipDirectory(badOffset)).toThrow(ZipFormatError);
    const [entry] = readZipDirectory(zip);
    expect(() => entryBytes(zip, { ...entry, localHeaderOffset: 5 })).toThrow(ZipFormatError);
    expect(() => entryBytes(zip, { ...entry, compressedSize: zip.length })).toThrow(ZipFormatError);
  });

  it('reads ZIP64 sizes from the extra field of a saturated entry', () => {
    const zip = buildZip({ 'a.txt': 'x' });
    const at = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    // Rewrite the central entry: sizes saturated, a ZIP64 extra with the real values.
    const extra = Buffer.alloc(20);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(16, 2);
    extra.writeBigUInt64LE(5_000_000_000n, 4);
    extra.writeBigUInt64LE(BigInt(zip.readUInt32LE(at + 20)), 12);
    const central = Buffer.from(zip.subarray(at, zip.length - 22));
    central.writeUInt32LE(0xffffffff, 20);
    central.writeUInt32LE(0xffffffff, 24);
    central.writeUInt16LE(extra.length, 30);
    const directory = Buffer.concat([central, extra]);
    const end = Buffer.from(zip.subarray(zip.length - 22));
    end.writeUInt32LE(directory.length, 12);
    const [entry] = readZipDirectory(Buffer.concat([zip.subarray(0, at), directory, end]));
    expect(entry.uncompressedSize).toBe(5_000_000_000);
    expect(entry.compressedSize).toBe(zip.readUInt32LE(at + 20));
  });
});
