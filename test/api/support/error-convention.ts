import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './layers.js';

/** One break of the error convention: where, and which rule. */
export interface ErrorConventionBreak {
  file: string;
  line: number;
  problem: string;
}

/** Files that may declare error classes: one family (`x.errors.ts`) or one class (`x.error.ts`). */
const ERROR_FILE = /\.errors?\.ts$/;
/** A name that reads as an error, or as the class of one (`Error`, `ToolkitError`, `HttpException`). */
const ERROR_NAME = /(?:Error|Exception)$/;
/** JavaScript's own error classes: extending one directly makes a base or an internal error. */
const BUILT_IN_ERRORS = new Set([
  'Error',
  'AggregateError',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
]);

/** `request-signal.errors.ts` → `request-signal.errors`; `body.error.ts` → `body.error`. */
function stem(file: string): string {
  return basename(file).replace(/\.ts$/, '');
}

/** `missing-platform-package` → `MissingPlatformPackage`. */
function pascal(kebab: string): string {
  return kebab
    .split(/[-.]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The name of the class `declaration` extends, as written (`ToolkitError`, `nest.HttpException`). */
function baseName(declaration: ts.ClassDeclaration, source: ts.SourceFile): string | undefined {
  const clause = declaration.heritageClauses?.find(
    (heritage) => heritage.token === ts.SyntaxKind.ExtendsKeyword,
  );
  const base = clause?.types[0]?.expression;
  if (!base) return undefined;
  const text = base.getText(source);
  return text.slice(text.lastIndexOf('.') + 1);
}

/**
 * The breaks of the error convention in `text`, the TypeScript source of `file`:
 *
 * - an error class (its name or the name of the class it extends ends in `Error` or
 *   `Exception`) is declared in a `*.error.ts` or `*.errors.ts` file, and its name ends in `Error`;
 * - no class extends Nest's `HttpException` (nor any `*Exception`): HTTP meaning is data on
 *   `ToolkitError` (`statusCode`, `headers`, `body`);
 * - a class that extends `Error` itself (or a built-in error) is a base or an internal signal that
 *   never reaches a client, named in `direct` (others extend `ToolkitError` or a subclass);
 * - a `<name>.error.ts` file declares one class, `<Name>Error`; a `<family>.errors.ts` file
 *   declares two or more;
 * - an error file exports nothing but its error classes, their option interfaces and types, and
 *   type guards.
 */
export function errorConventionBreaks(
  text: string,
  file = 'file.ts',
  direct: ReadonlySet<string> = new Set(),
): ErrorConventionBreak[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const breaks: ErrorConventionBreak[] = [];
  const report = (node: ts.Node, problem: string): void => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    breaks.push({ file, line: line + 1, problem });
  };
  const errorFile = ERROR_FILE.test(file);
  const errorClasses: ts.ClassDeclaration[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) && node.name) {
      const name = node.name.text;
      const base = baseName(node, source);
      if (ERROR_NAME.test(name) || (base !== undefined && ERROR_NAME.test(base))) {
        errorClasses.push(node);
        if (!name.endsWith('Error')) report(node, `${name}: an error class's name ends in Error`);
        if (!errorFile) report(node, `${name}: declared outside a *.error.ts or *.errors.ts file`);
        if (base?.endsWith('Exception')) {
          report(node, `${name}: extends ${base}; extend ToolkitError with the status as data`);
        }
        if (base !== undefined && BUILT_IN_ERRORS.has(base) && !direct.has(name)) {
          report(node, `${name}: extends ${base}, not ToolkitError (or list it as internal)`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!errorFile) return breaks;

  const name = stem(file);
  const classes = source.statements.filter(ts.isClassDeclaration);
  if (name.endsWith('.error')) {
    const expected = `${pascal(name.slice(0, -'.error'.length))}Error`;
    const names = classes.map((declaration) => declaration.name?.text ?? '(anonymous)');
    if (names.length !== 1 || names[0] !== expected) {
      report(source, `${name}.ts declares ${names.join(', ') || 'no class'}; expected ${expected}`);
    }
  } else if (errorClasses.length < 2) {
    report(source, `${name}.ts declares ${errorClasses.length} error classes; a family has 2+`);
  }
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) {
      report(statement, 'an error file declares its exports (no re-exports)');
    } else if (!isExported(statement)) {
      continue;
    } else if (ts.isClassDeclaration(statement)) {
      if (!errorClasses.includes(statement)) {
        report(statement, `${statement.name?.text ?? 'class'}: not an error class`);
      }
    } else if (ts.isFunctionDeclaration(statement)) {
      if (!(statement.type && ts.isTypePredicateNode(statement.type))) {
        report(
          statement,
          `${statement.name?.text ?? 'function'}: only type guards may join errors`,
        );
      }
    } else if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) {
      report(statement, 'an error file exports only error classes, their types and type guards');
    }
  }
  return breaks;
}

/** The breaks of the error convention in the TypeScript sources (specs aside) under `dir`. */
export function errorConventionBreaksIn(
  root: string,
  dir: string,
  direct: ReadonlySet<string>,
): ErrorConventionBreak[] {
  return sourceFiles(join(root, dir))
    .filter((file) => file.endsWith('.ts') && !/\.(?:e2e-)?spec\.ts$/.test(file))
    .flatMap((file) =>
      errorConventionBreaks(readFileSync(file, 'utf8'), relative(root, file), direct),
    );
}
