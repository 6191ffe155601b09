import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compileTypeScript } from '../../../../apps/cli/src/runtime/ts-compiler.js';
import { REPO_ROOT } from '../../../../apps/cli/test/support/cli-process.js';

const RUNTIME = join(REPO_ROOT, 'apps/cli/src/runtime');
/** The CLI's loader (`toolkit/register`) and what it imports. */
const LOADER_FILES = [
  'register',
  'ts-loader.hooks',
  'ts-compiler',
  'ts-resolution',
  'compile-cache',
];

/**
 * Runs a TypeScript module of the repository in a plain Node process rather than in jest, with
 * the CLI's own loader hooks (compiled from source here, so no build is needed): the module sees
 * Node's real module system, e.g. `require()` of an ES module package, which jest's ESM mode
 * cannot do before Node 24.9. Resolves to what the module printed.
 */
export async function runTypeScript(file: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return (await runTypeScriptOutput(file, env)).stdout;
}

/** {@link runTypeScript}, resolving to what the module printed on stdout and on stderr. */
export async function runTypeScriptOutput(
  file: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string }> {
  // Inside the repository, so that the loader's own imports (@swc/core) resolve.
  mkdirSync(join(REPO_ROOT, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, 'node_modules/.cache/toolkit-ts-loader-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    for (const name of LOADER_FILES) {
      const source = readFileSync(join(RUNTIME, `${name}.ts`), 'utf8');
      writeFileSync(join(dir, `${name}.js`), await compileTypeScript(source, `${name}.ts`));
    }
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', join(dir, 'register.js'), file],
      { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
    );
    return { stdout, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
