/**
 * How a README ```ts block is checked, written as an HTML comment on the line right above it
 * (GitHub does not render it):
 *
 * - `<!-- snippet: runnable NAME -->` — a whole one-file app that exports `app` (a toolkit `App`
 *   or a Nest application). It is type-checked, then imported with `HOST=127.0.0.1` and `PORT=0`
 *   (so an `app.run()` or `app.listen(process.env.PORT ?? 3000)` in it takes a free port), driven
 *   with `TestClient` by the check named NAME in `runnable-checks.ts`, and closed.
 * - `<!-- snippet: compile-only -->` — self-contained but not run (it needs a provider key, say):
 *   type-checked only.
 * - `<!-- snippet: fragment (app, llm) -->` — an excerpt that uses names the reader already has;
 *   type-checked with exactly those names declared first, as `fragment-context.ts` defines them.
 */
export type SnippetDirective =
  | { form: 'runnable'; name: string }
  | { form: 'compile-only' }
  | { form: 'fragment'; assumes: string[] };

const COMMENT = /^<!--\s*snippet\s*:(.*)-->$/;
const RUNNABLE = /^runnable\s+([a-z0-9][a-z0-9-]*)$/;
const FRAGMENT = /^fragment\s*\(([^)]*)\)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** True for a line that means to be a snippet comment, well-formed or not. */
export function isSnippetComment(line: string): boolean {
  return /^<!--\s*snippet\b/.test(line.trim());
}

/**
 * Reads a snippet comment; throws an `Error` saying what is wrong with a malformed one.
 *
 * @example
 * parseSnippetDirective('<!-- snippet: fragment (app, llm) -->');
 * // { form: 'fragment', assumes: ['app', 'llm'] }
 */
export function parseSnippetDirective(line: string): SnippetDirective {
  const comment = COMMENT.exec(line.trim());
  if (!comment) throw new Error(`not a snippet comment: ${line.trim()}`);
  const body = comment[1].trim();
  if (body === 'compile-only') return { form: 'compile-only' };
  const runnable = RUNNABLE.exec(body);
  if (runnable) return { form: 'runnable', name: runnable[1] };
  const fragment = FRAGMENT.exec(body);
  if (fragment) {
    const assumes = fragment[1].split(',').map((name) => name.trim());
    const bad = assumes.filter((name) => !IDENTIFIER.test(name));
    if (bad.length > 0) {
      throw new Error(`fragment must list identifiers, e.g. "fragment (app, llm)"; got "${body}"`);
    }
    return { form: 'fragment', assumes };
  }
  throw new Error(
    `unknown snippet form "${body}"; use "runnable NAME", "compile-only" or "fragment (names)"`,
  );
}

/** The directive as written after `snippet:`, e.g. `fragment (app, llm)`. */
export function formatSnippetDirective(directive: SnippetDirective): string {
  switch (directive.form) {
    case 'runnable':
      return `runnable ${directive.name}`;
    case 'fragment':
      return `fragment (${directive.assumes.join(', ')})`;
    case 'compile-only':
      return 'compile-only';
  }
}
