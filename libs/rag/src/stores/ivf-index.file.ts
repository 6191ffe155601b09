import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

/** Name of the IVF index file inside a local store's folder (a cache: the store works without it). */
export const IVF_FILE = 'ivf.index';
const MAGIC = 'TKIVF001';
const DIGEST_BYTES = 32;

/** What the index file holds: trained centroids and, per segment, the list of each of its rows. */
export interface IvfIndexFile {
  embedderId: string;
  dimensions: number;
  /** Rows the centroids were trained for. */
  trainedRows: number;
  /** `lists × dimensions` unit centroids. */
  centroids: Float32Array;
  /** Segment name → list of each of its rows, in row order. */
  segments: Map<string, Int32Array>;
}

interface Header {
  embedderId: string;
  dimensions: number;
  lists: number;
  trainedRows: number;
  segments: [string, number][];
}

/**
 * Writes the index file atomically (temporary file + rename). Layout: `TKIVF001`, a uint32
 * header length, the JSON header (padded to 4 bytes), the float32 centroids, the int32 list of
 * every row segment by segment, then a SHA-256 of all of it, so a torn or damaged file is
 * detected on read and ignored.
 */
export async function writeIvfFile(directory: string, file: IvfIndexFile): Promise<void> {
  const header: Header = {
    embedderId: file.embedderId,
    dimensions: file.dimensions,
    lists: file.centroids.length / file.dimensions,
    trainedRows: file.trainedRows,
    segments: [...file.segments].map(([name, lists]) => [name, lists.length]),
  };
  const json = Buffer.from(JSON.stringify(header));
  const headerBytes = Math.ceil(json.length / 4) * 4;
  const rows = header.segments.reduce((n, [, count]) => n + count, 0);
  const bodyBytes = 12 + headerBytes + file.centroids.byteLength + rows * 4;
  const bytes = new Uint8Array(bodyBytes + DIGEST_BYTES);
  bytes.set(Buffer.from(MAGIC, 'latin1'), 0);
  new DataView(bytes.buffer).setUint32(8, json.length, true);
  bytes.set(json, 12);
  let at = 12 + headerBytes;
  bytes.set(asBytes(file.centroids), at);
  at += file.centroids.byteLength;
  for (const lists of file.segments.values()) {
    bytes.set(asBytes(lists), at);
    at += lists.byteLength;
  }
  bytes.set(createHash('sha256').update(bytes.subarray(0, bodyBytes)).digest(), bodyBytes);
  await writeFileAtomic(join(directory, IVF_FILE), bytes);
}

/**
 * Reads the index file; `undefined` when it is missing, damaged (bad checksum, sizes or list
 * ids) or built for another embedder — the caller then searches exactly and rebuilds it.
 */
export async function readIvfFile(
  directory: string,
  expected: { embedderId: string; dimensions: number },
): Promise<IvfIndexFile | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(directory, IVF_FILE));
  } catch {
    return undefined;
  }
  try {
    return parse(bytes, expected);
  } catch {
    return undefined;
  }
}

/** Deletes the index file (if any). */
export async function removeIvfFile(directory: string): Promise<void> {
  await rm(join(directory, IVF_FILE), { force: true, recursive: true });
}

function parse(
  bytes: Buffer,
  expected: { embedderId: string; dimensions: number },
): IvfIndexFile | undefined {
  if (bytes.length < 12 + DIGEST_BYTES || bytes.toString('latin1', 0, 8) !== MAGIC) return;
  const bodyBytes = bytes.length - DIGEST_BYTES;
  const digest = createHash('sha256').update(bytes.subarray(0, bodyBytes)).digest();
  if (!digest.equals(bytes.subarray(bodyBytes))) return;
  const jsonBytes = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.toString('utf8', 12, 12 + jsonBytes)) as Header;
  const { dimensions, lists } = header;
  if (header.embedderId !== expected.embedderId || dimensions !== expected.dimensions) return;
  if (!Number.isInteger(lists) || lists < 1 || !Array.isArray(header.segments)) return;
  // Copy into an aligned buffer: typed arrays need offsets that are multiples of 4.
  const start = 12 + Math.ceil(jsonBytes / 4) * 4;
  const words = new Int32Array((bodyBytes - start) / 4);
  if (words.length * 4 !== bodyBytes - start) return;
  new Uint8Array(words.buffer).set(bytes.subarray(start, bodyBytes));
  const centroids = new Float32Array(words.buffer, 0, lists * dimensions);
  let at = lists * dimensions;
  const segments = new Map<string, Int32Array>();
  for (const [name, count] of header.segments) {
    const assigned = words.subarray(at, at + count);
    if (assigned.length !== count || assigned.some((l) => l < 0 || l >= lists)) return;
    segments.set(name, assigned);
    at += count;
  }
  if (at !== words.length) return;
  return {
    embedderId: header.embedderId,
    dimensions,
    trainedRows: header.trainedRows,
    centroids,
    segments,
  };
}

function asBytes(array: Float32Array | Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
