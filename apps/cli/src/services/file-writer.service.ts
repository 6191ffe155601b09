import { Injectable } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What {@link FileWriterService.writeIfAbsent} did. */
export type WriteOutcome = 'created' | 'kept';

/**
 * Writes the files commands generate (deploy configs, docs scaffolding). It never overwrites:
 * a file that exists is the user's, and is kept as it is.
 *
 * @example
 * if (files.writeIfAbsent('/app/Procfile', 'web: ...\n') === 'kept') terminal.info('Procfile kept');
 */
@Injectable()
export class FileWriterService {
  /** Creates `path` (and its folders) with `content` unless it exists. */
  writeIfAbsent(path: string, content: string): WriteOutcome {
    if (existsSync(path)) return 'kept';
    mkdirSync(dirname(path), { recursive: true });
    // 'wx' fails instead of overwriting if the file appeared in between.
    writeFileSync(path, content, { flag: 'wx' });
    return 'created';
  }

  /** True when the path exists. */
  exists(path: string): boolean {
    return existsSync(path);
  }

  /** The file's text, or `undefined` when it cannot be read. */
  read(path: string): string | undefined {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  }
}
