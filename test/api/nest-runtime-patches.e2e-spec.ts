// Toolkit's request path runs on the seams Nest documents (adapter subclasses, interceptors,
// filters, pipes, parameter decorators): it never replaces a method of Nest's adapter or of an
// instance Nest serves, never rewrites Nest's metadata of a user's class after decoration, never
// gives a method parameters it does not declare, and never imports `@nestjs/*/internal`. A routine
// Nest release can break any of those silently.
//
// STILL_THERE lists what the redesign has not removed yet, by file and kind. It may only shrink:
// a new patch anywhere fails, and so does a listed one that is gone (take it off the list).
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nestRuntimePatches, patchesIn, type PatchKind } from './support/nest-runtime-patches.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Patches the stream pipeline still uses (to go with "one stream pipeline, one entry"). */
const STILL_THERE: readonly string[] = [
  // `@Stream` gives the method a hidden `@Res()`: without it Nest ends the handler's async
  // iterable once the first answer is over, and a resumable producer outlives that
  // (libs/framework/test/nest-stream-release.e2e-spec.ts).
  'libs/framework/src/routing/route-params.decorator.ts: hidden-param',
];

describe('run-time patches of Nest', () => {
  it('are found in each form they take', () => {
    const kinds = (code: string): PatchKind[] => patchesIn(code).map((found) => found.kind);
    expect(kinds('adapter.reply = (res, body) => body;')).toEqual(['adapter-method']);
    expect(kinds('Object.defineProperty(httpAdapter, "reply", { value: f });')).toEqual([
      'adapter-method',
    ]);
    expect(kinds('Object.defineProperty(instance, name, { value: handler });')).toEqual([
      'instance-method',
    ]);
    expect(
      kinds(
        "import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';\n" +
          'Reflect.defineMetadata(ROUTE_ARGS_METADATA, args, controller, key);',
      ),
    ).toEqual(['nest-metadata-write']);
    expect(kinds('Res()(target, key, 3);')).toEqual(['hidden-param']);
    expect(
      kinds('function add(t: object, k: string, d: ParameterDecorator) { d(t, k, 2); }'),
    ).toEqual(['hidden-param']);
    expect(kinds("import { x } from '@nestjs/core/internal';")).toEqual(['internal-import']);
  });

  it('leave alone what is not one: toolkit metadata, reads, comments, strings', () => {
    const code = [
      "import { PATH_METADATA } from '@nestjs/common/constants.js';",
      "import { ROUTE_METADATA } from './toolkit.constants.js';",
      'Reflect.defineMetadata(ROUTE_METADATA, route, handler);',
      'const path = Reflect.getMetadata(PATH_METADATA, controller);',
      '// adapter.reply = patched',
      "const text = 'Object.defineProperty(instance, name, {})';",
      'response.statusCode = 204;',
    ].join('\n');
    expect(patchesIn(code)).toEqual([]);
  });

  it('are used nowhere in the libraries but where STILL_THERE says', () => {
    const found = ['libs/framework/src', 'libs/providers/src', 'libs/rag/src', 'libs/testing/src']
      .flatMap((dir) => nestRuntimePatches(ROOT, dir))
      .map((patch) => `${patch.file}: ${patch.kind}`);
    expect([...new Set(found)].sort()).toEqual([...STILL_THERE].sort());
  });
});
