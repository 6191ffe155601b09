import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Writes a `--import` preload that records every module URL the process loads into `logFile`
 * (through a resolve hook), so a test can prove what a command did NOT load. Returns its URL.
 */
export function writeModuleTracer(dir: string, logFile: string): string {
  const hooks = join(dir, 'trace-hooks.mjs');
  const preload = join(dir, 'trace.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(logFile)}, result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(
    preload,
    `import { register } from 'node:module';
import { createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(pathToFileURL(hooks).href)});
// CommonJS requires (nest-commander is CommonJS) bypass ESM hooks: record them too.
const Module = createRequire(import.meta.url)('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  appendFileSync(${JSON.stringify(logFile)}, 'require:' + request + '\\n');
  return load.apply(this, arguments);
};
`,
  );
  return pathToFileURL(preload).href;
}
