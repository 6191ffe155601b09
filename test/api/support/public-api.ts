import { join } from 'node:path';
import ts from 'typescript';
import { repoCompilerOptions } from '../../docs/support/repo-compiler-options.js';
import { ENTRY_POINTS, ENTRY_POINT_NAMES, type EntryPoint } from './entry-points.js';

/** `value`: exists at run time (class, function, constant); `type`: erased by the compiler. */
export type ExportKind = 'value' | 'type';

/** One name an entry point exports, and the declarations it leads to through re-exports. */
export interface PublicExport {
  name: string;
  kind: ExportKind;
  declarations: readonly ts.Declaration[];
}

/**
 * Reads each entry point's exports from its barrel with the TypeScript compiler, following
 * re-exports to the declarations. A name is a `value` when its declaration exists at run time
 * and no `export type` on the way made it type-only. Sorted by name.
 */
export function readPublicApi(root: string): Record<EntryPoint, PublicExport[]> {
  const files = ENTRY_POINT_NAMES.map((entry) => join(root, ENTRY_POINTS[entry]));
  const program = ts.createProgram(files, repoCompilerOptions(root));
  const checker = program.getTypeChecker();
  const api = {} as Record<EntryPoint, PublicExport[]>;
  for (const entry of ENTRY_POINT_NAMES) {
    const file = program.getSourceFile(join(root, ENTRY_POINTS[entry]));
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`${ENTRY_POINTS[entry]}: not a module`);
    api[entry] = checker
      .getExportsOfModule(module)
      .map((symbol) => describeExport(checker, symbol))
      .sort((a, b) => compareNames(a.name, b.name));
  }
  return api;
}

/** Case-insensitive, then ordinal: stable on every machine, and `App` sits next to `APP_INFO`. */
export function compareNames(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function describeExport(checker: ts.TypeChecker, symbol: ts.Symbol): PublicExport {
  let target = symbol;
  let typeOnly = false;
  while (target.flags & ts.SymbolFlags.Alias) {
    typeOnly ||= (target.declarations ?? []).some(ts.isTypeOnlyImportOrExportDeclaration);
    target = checker.getImmediateAliasedSymbol(target) ?? checker.getAliasedSymbol(target);
  }
  const isValue = (target.flags & ts.SymbolFlags.Value) !== 0 && !typeOnly;
  return {
    name: symbol.name,
    kind: isValue ? 'value' : 'type',
    declarations: target.declarations ?? [],
  };
}
