import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeLoadFailure } from './load-failure.js';
import { isServableApp, type ServableApp } from './served-app.js';
import { AppLoadError } from './app-load.error.js';

/**
 * What a served app imports, loaded before the TypeScript loader is registered: Node's loader
 * hooks run on a separate thread and every module loaded after `register()` makes a round trip
 * to it (importing toolkit took ~0.35 s longer with the hooks in place), while a module already
 * loaded costs nothing. The app's own files still go through the hooks. A platform the project
 * has not installed is skipped.
 */
const PRELOADED = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  'toolkit',
];

/**
 * Makes `import()` of the project's TypeScript work: loads the framework packages as the project
 * resolves them, then registers toolkit's TypeScript loader (`REGISTER_URL`). A package that
 * does not resolve is left to the app's own import to report.
 */
export async function prepareTypeScript(cwd: string, registerUrl: string): Promise<void> {
  const requireFromProject = createRequire(join(cwd, 'package.json'));
  for (const name of PRELOADED) {
    let resolved: string;
    try {
      resolved = requireFromProject.resolve(name);
    } catch {
      continue;
    }
    await import(pathToFileURL(resolved).href);
  }
  await import(registerUrl);
}

/**
 * Imports `file` and returns its export `exportName` when it can be served (an `App`, or anything
 * with `run()` and `close()`). TypeScript files need toolkit's loader registered first
 * (`toolkit/register`).
 *
 * @throws AppLoadError naming the file and what went wrong (syntax error, missing export, ...).
 */
export async function loadServedApp(file: string, exportName: string): Promise<ServableApp> {
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new AppLoadError(`cannot load ${basename(file)}: ${describeLoadFailure(error)}`, {
      cause: error,
    });
  }
  const exported = loaded[exportName];
  if (exported === undefined) {
    const found = Object.keys(loaded).join(', ') || 'nothing';
    throw new AppLoadError(
      `${basename(file)} does not export "${exportName}" (it exports: ${found})`,
    );
  }
  if (!isServableApp(exported)) {
    throw new AppLoadError(
      `"${exportName}" in ${basename(file)} is not an App (expected an object with run() and close())`,
    );
  }
  return exported;
}

/** The shutdown grace period the app's configuration sets, in ms (0 when it has none). */
export async function shutdownGraceOf(app: ServableApp): Promise<number> {
  const grace = (await app.config?.().catch(() => undefined))?.app.shutdown_grace;
  return grace === undefined ? 0 : grace * 1000;
}
