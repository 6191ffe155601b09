import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSnippets } from './support/readme-snippets.js';
import { repoCompilerOptions } from './support/repo-compiler-options.js';
import { RUNNABLE_CHECKS } from './support/runnable-checks.js';
import { formatSnippetDirective } from './support/snippet-directive.js';
import { toSnippetModule, type SnippetModule } from './support/snippet-module.js';
import { runSnippet, stopSnippet } from './support/snippet-runner.js';
import { typeCheckSnippets } from './support/snippet-type-checker.js';

// The README is a contract: every ```ts block type-checks against the sources, and the runnable
// ones answer real requests. The snippet comments are described in test/docs/README.md.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { snippets, problems } = readSnippets(readFileSync(join(ROOT, 'README.md'), 'utf8'));

// Runnable blocks use `new LLM('auto')`: with no provider key that is the offline `echo` model.
for (const name of Object.keys(process.env)) {
  if (name.endsWith('_API_KEY')) delete process.env[name];
}

// A dot-folder: `tsc -p tsconfig.json` does not include it; removed after the run.
const dir = mkdtempSync(join(ROOT, 'test/docs/.snippets-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Each block's module, or why it has none (a fragment assuming an unknown name). */
const modules = snippets.map((snippet): SnippetModule | Error => {
  try {
    return toSnippetModule(snippet, dir);
  } catch (error) {
    return error as Error;
  }
});

function title(index: number): string {
  const { line, directive } = snippets[index];
  return `README.md:${line} (${formatSnippetDirective(directive)})`;
}

describe('README.md', () => {
  it('marks every ```ts block with a snippet form and has no other TypeScript/JavaScript blocks', () => {
    expect(problems).toEqual([]);
    expect(snippets.length).toBeGreaterThan(0);
  });

  it('has a check for each runnable block and a runnable block for each check', () => {
    const runnable = snippets.flatMap(({ directive }) =>
      directive.form === 'runnable' ? [directive.name] : [],
    );
    expect(runnable.sort()).toEqual(Object.keys(RUNNABLE_CHECKS).sort());
  });
});

describe('README.md ```ts blocks type-check', () => {
  let errors: Map<SnippetModule, string[]>;

  beforeAll(() => {
    const checkable = modules.filter(
      (module): module is SnippetModule => !(module instanceof Error),
    );
    errors = typeCheckSnippets(checkable, repoCompilerOptions(ROOT));
  }, 60_000);

  modules.forEach((module, index) => {
    it(title(index), () => {
      if (module instanceof Error) throw module;
      expect(errors.get(module)).toEqual([]);
    });
  });
});

describe('README.md runnable blocks run', () => {
  modules.forEach((module, index) => {
    const { directive } = snippets[index];
    if (directive.form !== 'runnable' || module instanceof Error) return;
    it(title(index), async () => {
      expect(Object.hasOwn(RUNNABLE_CHECKS, directive.name)).toBe(true);
      const check = RUNNABLE_CHECKS[directive.name];
      const run = await runSnippet(module);
      try {
        await check(run);
      } finally {
        await stopSnippet(run);
      }
    });
  });
});
