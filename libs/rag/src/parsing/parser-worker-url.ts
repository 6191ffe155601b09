import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SOURCE_DIR = `${sep}libs${sep}rag${sep}src${sep}`;

/**
 * Where the parser worker's script is: `parse.worker.js` beside this module in the built
 * package. When toolkit runs from its TypeScript sources (its own test suite, where this module
 * is a `.ts` file and no `.js` sits beside it), the compiled copy under `dist/` is used: a worker
 * thread does not go through the test runner's TypeScript transform.
 */
export function parserWorkerUrl(): URL {
  const beside = new URL('./parse.worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const here = fileURLToPath(import.meta.url);
  const at = here.lastIndexOf(SOURCE_DIR);
  if (at < 0) return beside;
  const built = join(here.slice(0, at), 'dist', 'libs', 'rag', 'src', 'parsing', 'parse.worker.js');
  if (!existsSync(built)) {
    throw new Error(
      `The document parser worker is not built: ${built} is missing (run \`npm run build\`)`,
    );
  }
  return pathToFileURL(built);
}
