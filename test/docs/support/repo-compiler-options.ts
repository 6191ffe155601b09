import { join } from 'node:path';
import ts from 'typescript';

/**
 * The repository's own compiler options (`tsconfig.json`: strict, decorators with metadata,
 * NodeNext modules, and the `paths` that map `toolkit`, `toolkit/testing`, `toolkit/rag` and
 * `toolkit/providers` to the sources), for checking without emitting. Reading the file rather
 * than restating it keeps the README check from drifting away from `npm run typecheck`.
 */
export function repoCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  if (parsed.errors.length > 0) {
    const messages = parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    throw new Error(`tsconfig.json: ${messages.join('; ')}`);
  }
  return { ...parsed.options, noEmit: true, declaration: false, sourceMap: false };
}
