import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The libraries of the package; the order of dependence is providers ← framework ← rag ← testing. */
export type Layer = 'providers' | 'framework' | 'rag' | 'testing';

/** The package's own names, as a file may import them instead of a relative path. */
const PACKAGE_NAMES: Readonly<Record<string, Layer>> = {
  toolkit: 'framework',
  'toolkit/testing': 'testing',
  'toolkit/providers': 'providers',
  'toolkit/rag': 'rag',
  'toolkit/express': 'framework',
  'toolkit/fastify': 'framework',
};

/**
 * Every module a file names: static imports and re-exports (type-only ones included), dynamic
 * `import()` and `require()`.
 */
export function importedSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/**
 * The library a specifier written in `importer` points into, sources or their build in `dist/`;
 * `undefined` for anything else (npm packages, Node built-ins, the repository's other folders).
 */
export function layerOf(specifier: string, importer: string, root: string): Layer | undefined {
  if (!specifier.startsWith('.')) return PACKAGE_NAMES[specifier];
  const path = relative(root, resolve(dirname(importer), specifier)).replace(/^dist\//, '');
  const match = /^libs\/(providers|framework|rag|testing)\//.exec(path);
  return match ? (match[1] as Layer) : undefined;
}

/** The TypeScript and JavaScript files under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The imports of the files under `dir` (relative to `root`) that reach a forbidden layer, as
 * `file → specifier (layer)` lines.
 */
export function forbiddenImports(root: string, dir: string, forbidden: readonly Layer[]): string[] {
  return sourceFiles(join(root, dir)).flatMap((file) =>
    importedSpecifiers(readFileSync(file, 'utf8')).flatMap((specifier) => {
      const layer = layerOf(specifier, file, root);
      return layer && forbidden.includes(layer)
        ? [`${relative(root, file)} → ${specifier} (${layer})`]
        : [];
    }),
  );
}
