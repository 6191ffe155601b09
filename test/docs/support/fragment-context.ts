/**
 * The names a `<!-- snippet: fragment (...) -->` README block may use without defining them, each
 * declared the way a reader's own code would have it. A fragment gets exactly the names it lists,
 * one line each, above its code; types come through aliases so a fragment may still import `App`,
 * `LLM`, ... itself.
 *
 * - `app`: the `App` of the surrounding one-file app
 * - `llm`: an `LLM`
 * - `ChatController`: a controller class of the reader's app
 */
export const FRAGMENT_CONTEXT: Readonly<Record<string, string>> = {
  app: "import type { App as AssumedApp } from 'toolkit'; declare const app: AssumedApp;",
  llm: "import type { LLM as AssumedLLM } from 'toolkit'; declare const llm: AssumedLLM;",
  ChatController: 'declare class ChatController {}',
};

/**
 * The declarations a fragment assuming `names` starts with, one line per name; throws for a name
 * {@link FRAGMENT_CONTEXT} does not define.
 */
export function fragmentPrelude(names: readonly string[]): string[] {
  return names.map((name) => {
    if (!Object.hasOwn(FRAGMENT_CONTEXT, name)) {
      const known = Object.keys(FRAGMENT_CONTEXT).join(', ');
      throw new Error(
        `fragment assumes "${name}", which test/docs/support/fragment-context.ts does not declare (it declares ${known})`,
      );
    }
    return FRAGMENT_CONTEXT[name];
  });
}
