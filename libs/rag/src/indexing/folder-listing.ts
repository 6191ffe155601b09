import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { FolderGoneError } from './folder-gone.error.js';

/** Options of {@link listFiles}. */
export interface ListFilesOptions {
  /**
   * A folder the user asked for: {@link FolderGoneError} when it is missing, or removed during
   * the listing (whose result would be a part of it). Otherwise a missing folder has no files.
   * @default false
   */
  required?: boolean;
  /** Called before each folder is read (a seam for tests that remove it meanwhile). */
  onFolder?: (path: string) => void | Promise<void>;
}

/**
 * The files of a folder, relative, sorted, with `/` separators: hidden entries (`.index`,
 * dotfiles), temporary files (`*.tmp`) and symbolic links left out. A sub-folder removed
 * while it is listed is left out too.
 *
 * @example
 * await listFiles('docs', { required: true }); // ['guide.md', 'hr/handbook.pdf']
 */
export async function listFiles(root: string, options: ListFilesOptions = {}): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    await options.onFolder?.(dir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name.endsWith('.tmp')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
    }
  };
  await walk(root);
  if (options.required && !(await isFolder(root))) throw new FolderGoneError(root, 'listed');
  return out.sort();
}

/** True when `path` is a folder now. */
export async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
