import { splitMarkdown, type Fence } from './markdown-fences.js';
import {
  isSnippetComment,
  parseSnippetDirective,
  type SnippetDirective,
} from './snippet-directive.js';

/** A ```ts block of the README with the form its snippet comment gives it. */
export interface Snippet {
  /** 1-based README line of the opening fence. */
  line: number;
  /** The block's code; its first line is README line `line + 1`. */
  code: string;
  directive: SnippetDirective;
}

/** What {@link readSnippets} finds: the checkable blocks, and every way the README breaks the convention. */
export interface ReadmeSnippets {
  snippets: Snippet[];
  /** One `README.md:LINE: ...` sentence per problem; empty when the README follows the convention. */
  problems: string[];
}

// Languages a reader would take for TypeScript or JavaScript: only `ts` is checked, so the others
// would escape the contract.
export const ESCAPING_LANGS: ReadonlySet<string> = new Set([
  'typescript',
  'tsx',
  'mts',
  'cts',
  'js',
  'javascript',
  'jsx',
  'mjs',
  'cjs',
  'node',
]);

/**
 * Finds the README's ```ts blocks and their snippet comments (see `snippet-directive.ts`). A ts
 * block without a recognised comment, a comment above anything else, a TypeScript or JavaScript
 * block under another language name, an unlabelled block and two runnable blocks of one name are
 * problems, never silently skipped.
 */
export function readSnippets(markdown: string, file = 'README.md'): ReadmeSnippets {
  const { fences, prose } = splitMarkdown(markdown);
  const snippets: Snippet[] = [];
  const problems: string[] = [];
  const claimed = new Set<number>();
  for (const fence of fences) {
    const comment = fence.above && isSnippetComment(fence.above.text) ? fence.above : undefined;
    if (comment) claimed.add(comment.line);
    const problem = fenceProblem(fence, comment !== undefined);
    if (problem) {
      problems.push(`${file}:${fence.line}: ${problem}`);
      continue;
    }
    if (!comment) continue;
    try {
      snippets.push({
        line: fence.line,
        code: fence.code,
        directive: parseSnippetDirective(comment.text),
      });
    } catch (error) {
      problems.push(`${file}:${comment.line}: ${(error as Error).message}`);
    }
  }
  for (const { line, text } of prose) {
    if (isSnippetComment(text) && !claimed.has(line)) {
      problems.push(`${file}:${line}: this snippet comment is not right above a \`\`\`ts block`);
    }
  }
  problems.push(...duplicateNames(snippets, file));
  return { snippets, problems };
}

function fenceProblem(fence: Fence, commented: boolean): string | undefined {
  if (fence.lang === '') {
    return 'a code block without a language; label it (```ts is type-checked; bash, text, ... are not)';
  }
  if (ESCAPING_LANGS.has(fence.lang)) {
    return `a \`\`\`${fence.lang} block escapes the type check; write TypeScript as \`\`\`ts`;
  }
  if (fence.lang === 'ts' && !commented) {
    return 'a ```ts block needs a snippet comment on the line above it: <!-- snippet: runnable NAME -->, <!-- snippet: compile-only --> or <!-- snippet: fragment (names) -->';
  }
  if (fence.lang !== 'ts' && commented) {
    return `a snippet comment above a \`\`\`${fence.lang} block; only \`\`\`ts blocks are checked`;
  }
  return undefined;
}

function duplicateNames(snippets: readonly Snippet[], file: string): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const { line, directive } of snippets) {
    if (directive.form !== 'runnable') continue;
    const first = seen.get(directive.name);
    if (first === undefined) seen.set(directive.name, line);
    else
      problems.push(
        `${file}:${line}: runnable "${directive.name}" is already the block at line ${first}`,
      );
  }
  return problems;
}
