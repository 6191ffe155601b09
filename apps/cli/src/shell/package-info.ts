import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fields of toolkit's own `package.json` the CLI shows. */
export interface PackageInfo {
  /** Package name, e.g. `toolkit`. */
  name: string;
  /** Package version, printed by `toolkit --version`. */
  version: string;
  /** Folder holding the package.json (the installed toolkit's root). */
  root: string;
}

/**
 * Reads the nearest `package.json` above `fromUrl`: from `dist/apps/cli/src/` and from the
 * sources alike that is toolkit's own. Uses only `node:fs`, so `--version` stays instant.
 *
 * @example
 * readPackageInfo().version; // '0.1.0'
 */
export function readPackageInfo(fromUrl: string = import.meta.url): PackageInfo {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      return { name: json.name ?? 'toolkit', version: json.version ?? '0.0.0', root: dir };
    }
    const parent = dirname(dir);
    if (parent === dir) return { name: 'toolkit', version: '0.0.0', root: dir };
    dir = parent;
  }
}
