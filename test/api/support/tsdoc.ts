import ts from 'typescript';
import type { PublicExport } from './public-api.js';

/**
 * The declarations of an export that carry no TSDoc description: no `/** ... *\/` comment, or
 * one with tags only (a lone `@default` says nothing about what the thing is for). An
 * overloaded function needs its overload signatures documented, not its implementation.
 */
export function undocumentedDeclarations(exported: PublicExport): ts.Declaration[] {
  const overloaded = exported.declarations.some(
    (d) => ts.isFunctionDeclaration(d) && d.body === undefined,
  );
  return exported.declarations.filter((declaration) => {
    if (overloaded && ts.isFunctionDeclaration(declaration) && declaration.body) return false;
    return !hasDescription(declaration);
  });
}

function hasDescription(declaration: ts.Declaration): boolean {
  return ts
    .getJSDocCommentsAndTags(declaration)
    .some((doc) => ts.isJSDoc(doc) && (ts.getTextOfJSDocComment(doc.comment) ?? '').trim() !== '');
}

/** `path/to/file.ts:LINE`, relative to `root`, for messages. */
export function locationOf(declaration: ts.Declaration, root: string): string {
  const file = declaration.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(declaration.getStart());
  return `${file.fileName.slice(root.length + 1)}:${line + 1}`;
}
