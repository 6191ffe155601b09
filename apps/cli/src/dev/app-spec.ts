import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { InvalidArgumentError } from 'commander';

/** A parsed `--app <module>:<export>` value. */
export interface AppSpec {
  /** The module part as given, e.g. `app` or `src/server`. */
  module: string;
  /** The exported variable holding the `App`, e.g. `app`. */
  exportName: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const LOADABLE = ['.ts', '.mts', '.js', '.mjs'];

/**
 * Parses `--app`: `<module>:<export>` where the module is a file path without extension (`app`,
 * `src/server`) or a dotted module name (`src.server`). A malformed value is a usage error.
 *
 * @example
 * parseAppSpec('app:app'); // { module: 'app', exportName: 'app' }
 */
export function parseAppSpec(value: string): AppSpec {
  const colon = value.lastIndexOf(':');
  const module = colon > 0 ? value.slice(0, colon).trim() : '';
  const exportName = colon > 0 ? value.slice(colon + 1).trim() : '';
  if (!module || !IDENTIFIER.test(exportName)) {
    throw new InvalidArgumentError(
      'Expected <module>:<export>, for example app:app or src/server:app.',
    );
  }
  return { module, exportName };
}

/** The files `spec` may name, most preferred first (`app.ts` before `app.js`). */
export function appFileCandidates(cwd: string, spec: AppSpec): string[] {
  const hasExtension = LOADABLE.some((ext) => spec.module.endsWith(ext));
  const asPath =
    spec.module.includes('/') || hasExtension ? spec.module : spec.module.replaceAll('.', '/');
  const base = isAbsolute(asPath) ? asPath : join(cwd, asPath);
  return hasExtension ? [base] : LOADABLE.map((ext) => base + ext);
}

/**
 * The file that serves `spec` in `cwd`, or `undefined` when none of the candidates exists.
 *
 * @example
 * locateAppFile('/work/my-bot', { module: 'app', exportName: 'app' }); // '/work/my-bot/app.ts'
 */
export function locateAppFile(cwd: string, spec: AppSpec): string | undefined {
  return appFileCandidates(cwd, spec).find((file) => existsSync(file) && statSync(file).isFile());
}

/** `app.ts, app.mts, app.js or app.mjs`, relative to `cwd`, for messages. */
export function describeCandidates(cwd: string, spec: AppSpec): string {
  const names = appFileCandidates(cwd, spec).map((file) => relative(cwd, file) || file);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
