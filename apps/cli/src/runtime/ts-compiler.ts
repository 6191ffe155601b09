import { transform, type Options } from '@swc/core';

/**
 * SWC settings for user TypeScript: legacy decorators WITH `design:paramtypes` metadata (what
 * Nest's dependency injection by type reads; esbuild-based runners drop it), class fields
 * assigned like `tsc` with `useDefineForClassFields: false`, ES modules kept as ES modules.
 */
export function swcOptionsFor(filename: string): Options {
  return {
    filename,
    swcrc: false,
    configFile: false,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: filename.endsWith('.tsx') },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
  };
}

/**
 * Compiles one TypeScript module to JavaScript (an ES module with an inline source map).
 *
 * @example
 * const js = await compileTypeScript('export const x: number = 1;', '/app/x.ts');
 */
export async function compileTypeScript(source: string, filename: string): Promise<string> {
  const output = await transform(source, swcOptionsFor(filename));
  return output.code;
}
