import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Extensions the loader compiles. `.d.ts` files are types only and never loaded. */
export const TYPESCRIPT_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx'] as const;

/** `./x.js` may stand for `./x.ts` (TypeScript's NodeNext convention), and so on. */
const JS_TO_TS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['.js', ['.ts', '.tsx']],
  ['.mjs', ['.mts']],
  ['.cjs', ['.cts']],
  ['.jsx', ['.tsx']],
];

/** True for a URL the loader must compile. */
export function isTypeScriptUrl(url: string): boolean {
  if (!url.startsWith('file:')) return false;
  const path = url.split(/[?#]/, 1)[0];
  return !path.endsWith('.d.ts') && TYPESCRIPT_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** True for specifiers resolved against the importing file: `./x`, `../x`, `/x`, `file:...`. */
export function isPathSpecifier(specifier: string): boolean {
  return (
    /^\.{1,2}(\/|$)/.test(specifier) || specifier.startsWith('/') || specifier.startsWith('file:')
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The TypeScript file a path specifier that Node could not resolve stands for, or `undefined`:
 * `./x.js` → `./x.ts`, `./x` → `./x.ts`, `./dir` → `./dir/index.ts`.
 *
 * @example
 * typeScriptCandidate('./routes.js', 'file:///app/app.ts'); // 'file:///app/routes.ts' if it exists
 */
export function typeScriptCandidate(specifier: string, parentURL: string): string | undefined {
  const target = new URL(specifier, parentURL);
  const path = fileURLToPath(target);
  const suffix = target.search + target.hash;
  const tries: string[] = [];
  const swap = JS_TO_TS.find(([js]) => path.endsWith(js));
  if (swap) tries.push(...swap[1].map((ts) => path.slice(0, -swap[0].length) + ts));
  else tries.push(`${path}.ts`, `${path}.tsx`, `${path}/index.ts`);
  const found = tries.find(isFile);
  return found === undefined ? undefined : pathToFileURL(found).href + suffix;
}
