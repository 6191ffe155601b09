import { lstatSync } from 'node:fs';

/** True when something (file, folder, even a dangling symlink) is at `path`. */
export function pathTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
