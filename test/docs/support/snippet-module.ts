import { join } from 'node:path';
import { fragmentPrelude } from './fragment-context.js';
import type { Snippet } from './readme-snippets.js';

/** A README block as the TypeScript module that is type-checked (and, when runnable, run). */
export interface SnippetModule {
  snippet: Snippet;
  /** Absolute `.ts` path inside the repository, so `package.json` makes it an ES module. */
  fileName: string;
  text: string;
  /** Lines of assumed declarations before the block's code (a fragment's; 0 otherwise). */
  preludeLines: number;
}

/**
 * The module of one README block: a fragment's assumed declarations, the code, and `export {}`
 * so that even a block without imports is a module (top-level `await` included). Throws for a
 * fragment assuming a name `fragment-context.ts` does not declare.
 */
export function toSnippetModule(snippet: Snippet, dir: string): SnippetModule {
  const { directive } = snippet;
  const prelude = directive.form === 'fragment' ? fragmentPrelude(directive.assumes) : [];
  const label = directive.form === 'runnable' ? `-${directive.name}` : '';
  return {
    snippet,
    fileName: join(dir, `readme-L${String(snippet.line).padStart(4, '0')}${label}.ts`),
    text: [...prelude, snippet.code, 'export {};', ''].join('\n'),
    preludeLines: prelude.length,
  };
}

/**
 * The README line of a 0-based line of the module, or `undefined` for a line of the fragment's
 * assumed declarations.
 */
export function readmeLineOf(module: SnippetModule, index: number): number | undefined {
  if (index < module.preludeLines) return undefined;
  return module.snippet.line + 1 + index - module.preludeLines;
}
