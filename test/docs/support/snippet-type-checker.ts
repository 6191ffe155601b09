import ts from 'typescript';
import { readmeLineOf, type SnippetModule } from './snippet-module.js';

/**
 * Type-checks every snippet module in ONE `ts.Program` (the toolkit sources are then checked
 * once, not once per block) and gives each module its errors as `README.md:LINE:COL TSxxxx:
 * message` lines; a module without errors gets an empty list. The modules exist only in memory.
 */
export function typeCheckSnippets(
  modules: readonly SnippetModule[],
  options: ts.CompilerOptions,
  readme = 'README.md',
): Map<SnippetModule, string[]> {
  const byFile = new Map(modules.map((module) => [module.fileName, module]));
  const host = inMemoryHost(options, byFile);
  const program = ts.createProgram({ rootNames: [...byFile.keys()], options, host });
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  const errors = new Map<SnippetModule, string[]>();
  for (const module of modules) {
    const file = program.getSourceFile(module.fileName);
    const diagnostics = file
      ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]
      : [];
    errors.set(
      module,
      [...global, ...diagnostics].map((d) => describe(d, module, readme)),
    );
  }
  return errors;
}

function inMemoryHost(
  options: ts.CompilerOptions,
  byFile: ReadonlyMap<string, SnippetModule>,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  return {
    ...host,
    getSourceFile: (fileName, languageVersion, ...rest) => {
      const module = byFile.get(fileName);
      return module
        ? ts.createSourceFile(fileName, module.text, languageVersion, true)
        : getSourceFile.call(host, fileName, languageVersion, ...rest);
    },
    fileExists: (fileName) => byFile.has(fileName) || fileExists.call(host, fileName),
    readFile: (fileName) => byFile.get(fileName)?.text ?? readFile.call(host, fileName),
  };
}

function describe(diagnostic: ts.Diagnostic, module: SnippetModule, readme: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const code = `TS${diagnostic.code}`;
  if (diagnostic.file?.fileName !== module.fileName || diagnostic.start === undefined) {
    return `${readme}:${module.snippet.line} ${code}: ${message}`;
  }
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const readmeLine = readmeLineOf(module, line);
  if (readmeLine === undefined) {
    return `${readme}:${module.snippet.line} ${code} in the fragment's assumed declarations: ${message}`;
  }
  return `${readme}:${readmeLine}:${character + 1} ${code}: ${message}`;
}
