import { readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { FileChangedError } from './file-changed.error.js';

/** One consistent read of a file: its bytes and the size and mtime they were read at. */
export interface StableRead {
  content: Buffer;
  size: number;
  mtimeMs: number;
}

/** Options of {@link readStableFile}. */
export interface ReadStableFileOptions {
  /** Reads before giving up on a file that keeps changing. @default 3 */
  attempts?: number;
  /** How the bytes are read (a seam for tests that change the file mid-read). @default fs.readFile */
  read?: (path: string) => Promise<Uint8Array>;
}

/**
 * Reads a file that another process may be writing: stats it before and after the read and
 * reads again when the size, mtime or inode moved (a write in place, or a new file renamed
 * over it), so the bytes returned are one version of the file and the stat is that version's.
 * Missing files reject with Node's ENOENT as `readFile` does.
 *
 * @example
 * const { content, mtimeMs } = await readStableFile('docs/handbook.pdf');
 */
export async function readStableFile(
  path: string,
  options: ReadStableFileOptions = {},
): Promise<StableRead> {
  const attempts = options.attempts ?? 3;
  const read = options.read ?? readFile;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const before = await stat(path);
    const bytes = await read(path);
    const after = await stat(path);
    if (sameVersion(before, after) && bytes.byteLength === after.size) {
      const content = Buffer.isBuffer(bytes)
        ? bytes
        : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return { content, size: after.size, mtimeMs: after.mtimeMs };
    }
  }
  throw new FileChangedError(path, attempts);
}

function sameVersion(a: Stats, b: Stats): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;
}
