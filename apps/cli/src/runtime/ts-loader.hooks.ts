/**
 * Node module customization hooks (registered by `register.ts`) that run TypeScript directly:
 * `load` compiles `.ts` with SWC, emitting decorator metadata; `resolve` maps `./x.js` and
 * extensionless specifiers to the `.ts` file when no JavaScript file exists.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compileTypeScript } from './ts-compiler.js';
import { isPathSpecifier, isTypeScriptUrl, typeScriptCandidate } from './ts-resolution.js';

interface ResolveContext {
  parentURL?: string;
  conditions: string[];
  importAttributes?: Record<string, string>;
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
interface LoadContext {
  format?: string | null;
  conditions: string[];
  importAttributes?: Record<string, string>;
}
interface LoadResult {
  format: string;
  source?: string | ArrayBuffer | Uint8Array | null;
  shortCircuit?: boolean;
}

const NOT_FOUND = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_DIR_IMPORT']);

/** Node's `resolve` hook: Node first, the TypeScript file only when Node finds nothing. */
export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: (specifier: string, context?: ResolveContext) => Promise<ResolveResult>,
): Promise<ResolveResult> {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const parent = context.parentURL ?? `file://${process.cwd()}/`;
    if (typeof code !== 'string' || !NOT_FOUND.has(code) || !isPathSpecifier(specifier))
      throw error;
    const candidate = typeScriptCandidate(specifier, parent);
    if (candidate === undefined) throw error;
    return { url: candidate, format: 'module', shortCircuit: true };
  }
}

/** Node's `load` hook: TypeScript compiled to an ES module; everything else untouched. */
export async function load(
  url: string,
  context: LoadContext,
  nextLoad: (url: string, context?: LoadContext) => Promise<LoadResult>,
): Promise<LoadResult> {
  if (!isTypeScriptUrl(url)) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const source = await readFile(filename, 'utf8');
  return {
    format: 'module',
    source: await compileTypeScript(source, filename),
    shortCircuit: true,
  };
}
