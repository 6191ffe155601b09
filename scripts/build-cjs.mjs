// The CommonJS copy of toolkit's libraries, for the tools that cannot load ES modules: jest in its
// default (CommonJS) mode, as in every Nest 11 app with ts-jest, and older bundlers. It is made
// from the ES build `tsc` just wrote to dist/ (decorators and their metadata already compiled),
// so only the module syntax changes: SWC turns import/export into require/exports, `import()`
// into `require()` and `import.meta.url` into the file's URL, with Node's interop (a default
// import of a CommonJS package is its module.exports, as under Node's ESM loader).
//
// Node itself never loads this copy: the package's exports map gives Node the ES build under
// the `module-sync` condition, for `require` as well as `import` (require(esm), Node >= 20.19),
// so a process has one copy of every class and DI token. The declarations are copied beside
// the files, under a package.json that marks the folder CommonJS, so TypeScript types a
// `require` of toolkit as CommonJS.
import { transform } from '@swc/core';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'cjs');
/** The libraries behind the package's entry points (the CLI stays ES-only). */
const LIBRARIES = ['framework', 'providers', 'rag', 'testing'];

const SWC_OPTIONS = {
  jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } },
  module: { type: 'commonjs', importInterop: 'node', strict: true },
  sourceMaps: false,
  swcrc: false,
  configFile: false,
};

/** Every file under `dir`, recursively. */
async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Compiles one ES module of dist/ into its CommonJS twin under dist/cjs/. */
async function compile(file) {
  const target = join(OUT, relative(DIST, file));
  await mkdir(dirname(target), { recursive: true });
  if (file.endsWith('.d.ts')) return copyFile(file, target);
  if (!file.endsWith('.js')) return undefined;
  const source = await readFile(file, 'utf8');
  const { code } = await transform(source, { ...SWC_OPTIONS, filename: file });
  return writeFile(target, code);
}

const started = Date.now();
await rm(OUT, { recursive: true, force: true });
const files = (
  await Promise.all(LIBRARIES.map((name) => filesUnder(join(DIST, 'libs', name, 'src'))))
).flat();
if (files.length === 0) {
  console.error('build-cjs: dist/libs is empty; run `tsc -p tsconfig.build.json` first');
  process.exit(1);
}
await Promise.all(files.map(compile));
await writeFile(
  join(OUT, 'package.json'),
  `${JSON.stringify({ type: 'commonjs', private: true }, null, 2)}\n`,
);
const compiled = files.filter((file) => file.endsWith('.js')).length;
console.log(`build-cjs: ${compiled} modules to dist/cjs in ${Date.now() - started} ms`);
