import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './layers.js';

/** The kinds of run-time patch of Nest that toolkit's request path must not use. */
export type PatchKind =
  | 'adapter-method' // a method of an HTTP adapter replaced: `adapter.reply = ...`
  | 'instance-method' // a method of an instance Nest serves replaced: `Object.defineProperty(instance, ...)`
  | 'nest-metadata-write' // Nest's own metadata rewritten: `Reflect.defineMetadata(INTERCEPTORS_METADATA, ...)`
  | 'hidden-param' // a parameter decorator applied to a parameter the method does not declare
  | 'internal-import'; // `@nestjs/<package>/internal`

/** One patch found: where, what kind, and the code. */
export interface FoundPatch {
  file: string;
  line: number;
  kind: PatchKind;
  code: string;
}

const ADAPTER = /adapter/i;
const INSTANCE = /instance|controller/i;
const NEST_CONSTANTS = /^@nestjs\/common\/constants(\.js)?$/;
/**
 * Nest's parameter decorators that take the response away from Nest's reply. (`Req()` applied to
 * a parameter a handler declares, as `app.route`'s generated controller does, is not hidden.)
 */
const NEST_PARAM_DECORATORS = new Set(['Res', 'Response', 'Next']);

/** The run-time patches of Nest in `text` (TypeScript source). Comments and strings never count. */
export function patchesIn(text: string, file = 'file.ts'): FoundPatch[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FoundPatch[] = [];
  const report = (node: ts.Node, kind: PatchKind): void => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push({ file, line: line + 1, kind, code: node.getText(source).split('\n')[0] });
  };
  const nestConstants = new Set<string>();
  const decoratorParams = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      if (/^@nestjs\/[^/]+\/internal/.test(from)) report(node, 'internal-import');
      const names = node.importClause?.namedBindings;
      if (NEST_CONSTANTS.test(from) && names && ts.isNamedImports(names)) {
        for (const element of names.elements) nestConstants.add(element.name.text);
      }
    }
    if (
      ts.isParameter(node) &&
      node.type?.getText(source) === 'ParameterDecorator' &&
      ts.isIdentifier(node.name)
    ) {
      decoratorParams.add(node.name.text);
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      ADAPTER.test(node.left.expression.getText(source))
    ) {
      report(node, 'adapter-method');
    }
    if (ts.isCallExpression(node)) inspectCall(node);
    ts.forEachChild(node, visit);
  };
  const inspectCall = (call: ts.CallExpression): void => {
    const callee = call.expression.getText(source);
    const [first] = call.arguments;
    if (callee === 'Object.defineProperty' && first) {
      const target = first.getText(source);
      if (ADAPTER.test(target)) report(call, 'adapter-method');
      else if (INSTANCE.test(target)) report(call, 'instance-method');
    }
    if (callee === 'Reflect.defineMetadata' && first && nestConstants.has(first.getText(source))) {
      report(call, 'nest-metadata-write');
    }
    // `Res()(target, key, index)`, or a ParameterDecorator given as an argument and applied.
    const inner = call.expression;
    const appliesNestParam =
      ts.isCallExpression(inner) && NEST_PARAM_DECORATORS.has(inner.expression.getText(source));
    if (appliesNestParam || (ts.isIdentifier(inner) && decoratorParams.has(inner.text))) {
      report(call, 'hidden-param');
    }
  };
  visit(source);
  return found;
}

/** The run-time patches in the TypeScript sources under `dir` (tests beside them left out). */
export function nestRuntimePatches(root: string, dir: string): FoundPatch[] {
  return sourceFiles(join(root, dir))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .flatMap((file) => patchesIn(readFileSync(file, 'utf8'), relative(root, file)));
}
