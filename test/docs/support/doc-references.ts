import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitMarkdown } from './markdown-fences.js';
import { ESCAPING_LANGS } from './readme-snippets.js';

/** What a contributor document refers to, as {@link readReferences} finds it. */
export interface DocReferences {
  /** Repository paths written in backticks (`libs/framework/src/app/app.ts`, `bench/`). */
  paths: string[];
  /** Targets of relative Markdown links (`[README](README.md)`), anchors removed. */
  links: string[];
  /** Scripts named by `npm run <script>`, in prose and in code blocks. */
  scripts: string[];
  /** Languages of fenced blocks that hold TypeScript or JavaScript, with their line. */
  codeBlocks: string[];
}

/**
 * Fence languages that are TypeScript or JavaScript: only the README's blocks are compiled (by
 * test/docs/readme-snippets.e2e-spec.ts), so no other document may hold one.
 */
const SCRIPT_LANGUAGES: ReadonlySet<string> = new Set(['ts', ...ESCAPING_LANGS]);

/**
 * Build output (gitignored): it exists only after `npm run build`, so it is not looked for in a
 * fresh clone.
 */
const BUILD_OUTPUT = /^dist(\/|$)/;

const CODE_SPAN = /`([^`\n]+)`/g;
const LINK = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const NPM_RUN = /\bnpm run ([\w:.-]+)/g;

/**
 * True for a code span that names a path in the repository: no spaces, no placeholder or glob
 * (`<name>`, `*`, `{a,b}`), no URL, a `/` in it, and either a file extension or a trailing `/`.
 * `toolkit/express` (a package name) and `text/plain` (a media type) are not paths.
 *
 * @example
 * looksLikePath('apps/cli/src/main.ts'); // true
 * looksLikePath('toolkit/testing'); // false
 */
export function looksLikePath(span: string): boolean {
  if (/[\s<>*{}|]/.test(span) || /^[a-z][a-z0-9+.-]*:/i.test(span) || !span.includes('/')) {
    return false;
  }
  const last = span.slice(span.lastIndexOf('/') + 1);
  return span.endsWith('/') || /\.[a-z0-9]+$/i.test(last);
}

/** Finds the paths, links, scripts and TypeScript/JavaScript blocks of a Markdown document. */
export function readReferences(markdown: string): DocReferences {
  const { fences, prose } = splitMarkdown(markdown);
  const paths: string[] = [];
  const links: string[] = [];
  for (const { text } of prose) {
    for (const [, span] of text.matchAll(CODE_SPAN)) {
      const path = span.replace(/^\.\//, '');
      if (looksLikePath(path) && !BUILD_OUTPUT.test(path)) paths.push(path);
    }
    for (const [, target] of text.matchAll(LINK)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      links.push(target.replace(/#.*$/, ''));
    }
  }
  const scripts = [...markdown.matchAll(NPM_RUN)].map(([, script]) => script);
  const codeBlocks = fences
    .filter((fence) => SCRIPT_LANGUAGES.has(fence.lang))
    .map((fence) => `\`\`\`${fence.lang} at line ${fence.line}`);
  return {
    paths: unique(paths),
    links: unique(links),
    scripts: unique(scripts),
    codeBlocks,
  };
}

/** What in a document does not hold: missing paths and link targets, unknown scripts, code blocks. */
export interface DocProblems {
  missingPaths: string[];
  missingLinks: string[];
  unknownScripts: string[];
  codeBlocks: string[];
}

/**
 * Checks a document's references against the repository at `root`. `docPath` is the document's
 * path relative to `root` (links resolve from its folder); `scripts` are package.json's scripts.
 */
export function checkReferences(
  refs: DocReferences,
  root: string,
  docPath: string,
  scripts: Readonly<Record<string, string>>,
): DocProblems {
  const docDir = dirname(join(root, docPath));
  return {
    missingPaths: refs.paths.filter((path) => !existsSync(join(root, path))),
    missingLinks: refs.links.filter((target) => !existsSync(join(docDir, target))),
    unknownScripts: refs.scripts.filter((script) => !Object.hasOwn(scripts, script)),
    codeBlocks: refs.codeBlocks,
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
