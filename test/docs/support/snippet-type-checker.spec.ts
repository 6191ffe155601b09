import { beforeAll, describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SnippetDirective } from './snippet-directive.js';
import { repoCompilerOptions } from './repo-compiler-options.js';
import { toSnippetModule, type SnippetModule } from './snippet-module.js';
import { typeCheckSnippets } from './snippet-type-checker.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = join(ROOT, 'test/docs/.snippets-type-checker-spec'); // never written: in memory only

const compileOnly: SnippetDirective = { form: 'compile-only' };
const app: SnippetDirective = { form: 'fragment', assumes: ['app'] };

// Blocks at README lines 100, 200, ...: their code starts on the line after.
const cases = {
  fragment: [app, "app.route('/x', {}, () => ({ ok: true }));"],
  wrongOption: [compileOnly, "import { App } from 'toolkit';\nconst app = new App({ title: 1 });"],
  unlisted: [{ form: 'fragment', assumes: [] }, 'await llm.chat("hi");'],
  missingExport: [compileOnly, "import { TestClient, NoSuchThing } from 'toolkit/testing';"],
  entryPoints: [
    compileOnly,
    "import { HashingEmbedder } from 'toolkit/rag';\nimport { isKeySet } from 'toolkit/providers';\nnew HashingEmbedder(); isKeySet('x');",
  ],
  decorators: [
    compileOnly,
    [
      "import { Controller } from '@nestjs/common';",
      "import { Arg, Route } from 'toolkit';",
      '@Controller()',
      'export class C {',
      "  @Route('/x/:id') x(@Arg('id') id: string) { return id; }",
      '}',
    ].join('\n'),
  ],
  implicitAny: [compileOnly, 'export function f(x) { return x; }'],
} satisfies Record<string, [SnippetDirective, string]>;

describe('typeCheckSnippets', () => {
  const modules: Record<string, SnippetModule> = {};
  let errors: Map<SnippetModule, string[]>;

  beforeAll(() => {
    Object.entries(cases).forEach(([name, [directive, code]], index) => {
      modules[name] = toSnippetModule({ line: 100 * (index + 1), code, directive }, DIR);
    });
    errors = typeCheckSnippets(Object.values(modules), repoCompilerOptions(ROOT));
  }, 60_000);

  const errorsOf = (name: keyof typeof cases) => errors.get(modules[name]);

  it('passes a fragment that uses what it assumes, with the repository options', () => {
    expect(errorsOf('fragment')).toEqual([]);
    expect(errorsOf('decorators')).toEqual([]);
  });

  it('resolves toolkit/rag and toolkit/providers to the sources', () => {
    expect(errorsOf('entryPoints')).toEqual([]);
  });

  it('names the README line and column of a type error', () => {
    expect(errorsOf('wrongOption')).toEqual([
      expect.stringMatching(
        /^README\.md:202:23 TS2322: Type 'number' is not assignable to type 'string'/,
      ),
    ]);
  });

  it('fails a fragment using a name it does not list', () => {
    expect(errorsOf('unlisted')).toEqual(["README.md:301:7 TS2304: Cannot find name 'llm'."]);
  });

  it('fails an import the package does not export', () => {
    expect(errorsOf('missingExport')).toEqual([
      expect.stringMatching(
        /^README\.md:401:22 TS2305: Module '"toolkit\/testing"' has no exported member 'NoSuchThing'/,
      ),
    ]);
  });

  it('is strict', () => {
    expect(errorsOf('implicitAny')).toEqual([
      expect.stringMatching(
        /^README\.md:701:19 TS7006: Parameter 'x' implicitly has an 'any' type/,
      ),
    ]);
  });
});
