import { Injectable } from '@nestjs/common';
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../errors/cli.errors.js';
import { DirectoryExistsError } from './new.errors.js';
import { pathTaken } from './path-taken.js';
import type { GeneratedFile } from './template-renderer.service.js';

/**
 * Writes a new project all at once: the files go into a hidden temporary folder beside the
 * target, which is then renamed into place. A failure part-way (disk full, bad permissions)
 * removes the temporary folder, so there is either a whole project or none.
 *
 * @example
 * writer.write('/home/ana/my-bot', files);
 */
@Injectable()
export class ProjectWriterService {
  /** Creates `target` (it must not exist; its parent folders are created) holding `files`. */
  write(target: string, files: readonly GeneratedFile[]): void {
    if (pathTaken(target)) throw new DirectoryExistsError(target);
    const umask = process.umask();
    const parent = dirname(target);
    let staging: string;
    try {
      mkdirSync(parent, { recursive: true });
      // A sibling of the target, so the final rename stays on one file system.
      staging = mkdtempSync(join(parent, `.${basename(target)}-`));
    } catch (error) {
      throw new CliError(`Cannot create a project in ${parent}`, {
        cause: error,
        hint: reason(error),
      });
    }
    try {
      for (const file of files) {
        const path = join(staging, ...file.path.split('/'));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.content, { flag: 'wx' });
        chmodSync(path, file.mode & ~umask);
      }
      // mkdtemp makes the folder private (0700); a project folder is 0755 like any other.
      chmodSync(staging, 0o777 & ~umask);
      // rename() would replace an empty folder created meanwhile: check again right before.
      if (pathTaken(target)) throw new DirectoryExistsError(target);
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (error instanceof CliError) throw error;
      throw new CliError(`Cannot write the project into ${target}; nothing was created`, {
        cause: error,
        hint: reason(error),
      });
    }
  }
}

function reason(error: unknown): string | undefined {
  return error instanceof Error ? error.message : undefined;
}
