import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStableFile } from './read-stable-file.js';
import { FileChangedError } from './file-changed.error.js';

describe('readStableFile', () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tk-stable-read-'));
    path = join(dir, 'note.txt');
    writeFileSync(path, 'version 1');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns the bytes with the stat they were read at', async () => {
    const read = await readStableFile(path);
    expect(read.content.toString()).toBe('version 1');
    expect(read).toMatchObject({ size: 9, mtimeMs: statSync(path).mtimeMs });
  });

  it('reads again when the file is rewritten during a read, returning the new version', async () => {
    let reads = 0;
    const rewriteOnce = async (file: string): Promise<Uint8Array> => {
      const bytes = await readFile(file);
      reads += 1;
      if (reads === 1) await writeFile(file, 'version 2, longer'); // mid-read, in place
      return bytes;
    };
    const read = await readStableFile(path, { read: rewriteOnce });
    expect(reads).toBe(2);
    expect(read.content.toString()).toBe('version 2, longer');
    expect(read.size).toBe(17);
  });

  it('notices a new file renamed over the one being read', async () => {
    let reads = 0;
    const replaceOnce = async (file: string): Promise<Uint8Array> => {
      const bytes = await readFile(file);
      reads += 1;
      if (reads === 1) {
        await writeFile(`${file}.new`, 'version 1'); // same size, another inode
        await rename(`${file}.new`, file);
      }
      return bytes;
    };
    await readStableFile(path, { read: replaceOnce });
    expect(reads).toBe(2);
  });

  it('gives up with a clear error on a file that changes during every read', async () => {
    let n = 0;
    const rewriteAlways = async (file: string): Promise<Uint8Array> => {
      const bytes = await readFile(file);
      await writeFile(file, `version ${(n += 1)}${'!'.repeat(n)}`);
      return bytes;
    };
    const error = await readStableFile(path, { read: rewriteAlways, attempts: 3 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FileChangedError);
    expect((error as Error).message).toBe(
      'changed while it was being read (3 attempts); ingest it again once it is written',
    );
    expect(n).toBe(3);
  });

  it('rejects a missing file with ENOENT, like readFile', async () => {
    const error = await readStableFile(join(dir, 'gone.txt')).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
