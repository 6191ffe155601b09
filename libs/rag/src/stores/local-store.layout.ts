import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolkitError } from '../../../providers/src/internal.js';
import type { Chunk } from '../chunking/chunk.types.js';
import type { DocumentRecord } from '../document.types.js';
import { writeFileAtomic } from './atomic-file.js';

/** Name of the index file inside a local store's folder. */
export const STORE_FILE = 'store.json';
/** Sub-folder holding one vector file and one chunk file per document. */
export const SEGMENTS_DIR = 'segments';
const FORMAT = 'toolkit-local-vector-store';
const VERSION = 1;

/** A stored document and the segment files holding its chunks. */
export interface SegmentEntry {
  record: DocumentRecord;
  /** Base name of `<segment>.f32` (vectors) and `<segment>.json` (chunks). */
  segment: string;
}

/** Content of `store.json`: which embedder built the store and which documents it holds. */
export interface StoreFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  embedderId: string;
  dimensions: number;
  documents: SegmentEntry[];
}

/** A new store file for an embedder. */
export function emptyStoreFile(embedderId: string, dimensions: number): StoreFile {
  return { format: FORMAT, version: VERSION, embedderId, dimensions, documents: [] };
}

/** Reads `store.json`; `undefined` when the folder holds no store yet. */
export async function readStoreFile(directory: string): Promise<StoreFile | undefined> {
  let raw: string;
  try {
    raw = await readFile(join(directory, STORE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = parseJson<Partial<StoreFile>>(raw, directory, STORE_FILE);
  if (parsed.format !== FORMAT || parsed.version !== VERSION || !Array.isArray(parsed.documents)) {
    throw corrupt(directory, `${STORE_FILE} is not a version ${VERSION} store file`);
  }
  return parsed as StoreFile;
}

/** Replaces `store.json` atomically: the commit point of every change. */
export function writeStoreFile(directory: string, file: StoreFile): Promise<void> {
  return writeFileAtomic(join(directory, STORE_FILE), JSON.stringify(file));
}

/** A fresh, never reused segment name for a document (any id is safe: it is hashed). */
export function newSegmentName(documentId: string): string {
  const hash = createHash('sha256').update(documentId).digest('hex').slice(0, 24);
  return `${hash}-${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/** Writes a document's chunks (JSON) and unit vectors (raw little-endian float32). */
export async function writeSegment(
  directory: string,
  segment: string,
  chunks: Chunk[],
  vectors: Float32Array,
): Promise<void> {
  const base = join(directory, SEGMENTS_DIR, segment);
  await writeFileAtomic(
    `${base}.f32`,
    new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength),
  );
  await writeFileAtomic(`${base}.json`, JSON.stringify(chunks));
}

/** Reads a segment back; its vector file must hold exactly one vector per chunk. */
export async function readSegment(
  directory: string,
  segment: string,
  dimensions: number,
): Promise<{ chunks: Chunk[]; vectors: Float32Array }> {
  const base = join(directory, SEGMENTS_DIR, segment);
  const [bytes, json] = await Promise.all([
    readFile(`${base}.f32`),
    readFile(`${base}.json`, 'utf8'),
  ]);
  const chunks = parseJson<Chunk[]>(json, directory, `segment ${segment}`);
  if (bytes.byteLength !== chunks.length * dimensions * 4) {
    throw corrupt(
      directory,
      `segment ${segment} holds ${bytes.byteLength} bytes for ${chunks.length} chunks`,
    );
  }
  // A view when the bytes are 4-byte aligned (large files get a buffer of their own); else a
  // copy, as a small file's Buffer may sit at any offset of a shared pool.
  if (bytes.byteOffset % 4 === 0) {
    return { chunks, vectors: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
  }
  const vectors = new Float32Array(chunks.length * dimensions);
  new Uint8Array(vectors.buffer).set(bytes);
  return { chunks, vectors };
}

function parseJson<T>(text: string, directory: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw corrupt(directory, `${what} is not valid JSON`);
  }
}

function corrupt(directory: string, detail: string): ToolkitError {
  return new ToolkitError(
    `Local vector store at ${directory} is damaged: ${detail}. Delete the folder to rebuild it from the documents.`,
    { statusCode: 500 },
  );
}
