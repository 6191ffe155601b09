import { describe, expect, it } from '@jest/globals';
import { readSnippets } from './readme-snippets.js';

const md = (...lines: string[]) => lines.join('\n');

describe('readSnippets', () => {
  it('gives each commented ```ts block its form and leaves other languages alone', () => {
    const result = readSnippets(
      md(
        'Intro',
        '<!-- snippet: runnable demo -->',
        '```ts',
        'export const app = 1;',
        '```',
        '',
        '<!-- snippet: fragment (app) -->',
        '',
        '```ts',
        'app;',
        '```',
        '```bash',
        'npm test',
        '```',
      ),
    );
    expect(result).toEqual({
      snippets: [
        { line: 3, code: 'export const app = 1;', directive: { form: 'runnable', name: 'demo' } },
        { line: 9, code: 'app;', directive: { form: 'fragment', assumes: ['app'] } },
      ],
      problems: [],
    });
  });

  it('reports a ```ts block without a snippet comment instead of skipping it', () => {
    const { snippets, problems } = readSnippets(md('Text', '', '```ts', 'let x = 1;', '```'));
    expect(snippets).toEqual([]);
    expect(problems).toEqual([
      expect.stringMatching(/^README\.md:3: a ```ts block needs a snippet comment/),
    ]);
  });

  it.each(['typescript', 'tsx', 'js', 'javascript', 'mjs'])('reports a ```%s block', (lang) => {
    const { problems } = readSnippets(
      md('<!-- snippet: compile-only -->', '```' + lang, 'x', '```'),
    );
    expect(problems).toEqual([
      `README.md:2: a \`\`\`${lang} block escapes the type check; write TypeScript as \`\`\`ts`,
    ]);
  });

  it('reports an unlabelled block, a comment above another language and a stray comment', () => {
    const { problems } = readSnippets(
      md(
        '```',
        'x',
        '```',
        '<!-- snippet: compile-only -->',
        '```bash',
        'ls',
        '```',
        '<!-- snippet: compile-only -->',
        'Some prose in between.',
        '```text',
        'y',
        '```',
      ),
      'DOC.md',
    );
    expect(problems).toEqual([
      expect.stringMatching(/^DOC\.md:1: a code block without a language/),
      'DOC.md:5: a snippet comment above a ```bash block; only ```ts blocks are checked',
      'DOC.md:8: this snippet comment is not right above a ```ts block',
    ]);
  });

  it('reports a malformed comment at its line and two runnable blocks of one name', () => {
    const block = (comment: string) => [comment, '```ts', 'x;', '```'];
    const { snippets, problems } = readSnippets(
      md(
        ...block('<!-- snippet: runnable one -->'),
        ...block('<!-- snippet: run it -->'),
        ...block('<!-- snippet: runnable one -->'),
      ),
    );
    expect(snippets.map(({ line }) => line)).toEqual([2, 10]);
    expect(problems).toEqual([
      expect.stringMatching(/^README\.md:5: unknown snippet form "run it"/),
      'README.md:10: runnable "one" is already the block at line 2',
    ]);
  });
});
