import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './layers.js';

/**
 * Names that only lead into Nest's private state: the container behind `ModuleRef` (and the
 * `ApplicationConfig` it holds), and the application's lists of global enhancers.
 */
const PRIVATE_MEMBERS = new Set([
  'container',
  'applicationConfig',
  'getGlobalFilters',
  'getGlobalRequestFilters',
  'getGlobalPipes',
  'getGlobalGuards',
  'getGlobalInterceptors',
]);

/** Nest's internal classes, whose instances the public API never hands out. */
const PRIVATE_TYPES = new Set(['NestContainer', 'ApplicationConfig']);

/**
 * The places in `text` (TypeScript) that read Nest's private state, as `line: code` strings:
 * a member access `x.container` or `x['container']` (any of `PRIVATE_MEMBERS`) and any use of
 * `PRIVATE_TYPES`. Comments and strings are not code, so they never count.
 */
export function privateReadsIn(text: string, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node): void => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${line + 1}: ${node.getText(source)}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && PRIVATE_MEMBERS.has(node.name.text)) report(node);
    else if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      PRIVATE_MEMBERS.has(node.argumentExpression.text)
    ) {
      report(node);
    } else if (ts.isIdentifier(node) && PRIVATE_TYPES.has(node.text)) report(node);
    else if (
      (ts.isPropertySignature(node) || ts.isMethodSignature(node)) &&
      PRIVATE_MEMBERS.has(node.name.getText(source))
    ) {
      // A type written to reach the member through a cast: `as { container?: ... }`.
      report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The private reads in the TypeScript sources under `dir` (relative to `root`), tests beside
 * them left out, as `file:line: code` strings.
 */
export function privateNestReads(root: string, dir: string): string[] {
  return sourceFiles(join(root, dir))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .flatMap((file) =>
      privateReadsIn(readFileSync(file, 'utf8'), file).map(
        (read) => `${relative(root, file)}:${read}`,
      ),
    );
}
