import { describe, expect, it } from '@jest/globals';
import { splitMarkdown } from './markdown-fences.js';

describe('splitMarkdown', () => {
  it('finds each fenced block with its language, line, code and the line above it', () => {
    const { fences } = splitMarkdown(
      [
        '# Title',
        '',
        'Intro',
        '',
        '```ts',
        'const a = 1;',
        'const b = 2;',
        '```',
        '',
        '```bash',
        'ls',
        '```',
      ].join('\n'),
    );
    expect(fences).toEqual([
      {
        lang: 'ts',
        line: 5,
        code: 'const a = 1;\nconst b = 2;',
        above: { line: 3, text: 'Intro' },
      },
      { lang: 'bash', line: 10, code: 'ls', above: { line: 8, text: '```' } },
    ]);
  });

  it('reads tilde fences, longer fences, info strings, upper-case languages and CRLF', () => {
    const markdown =
      '~~~TS title="x"\r\nlet x = 1;\r\n~~~\r\n````md\r\n```ts\r\ninner\r\n```\r\n````\r\n';
    expect(
      splitMarkdown(markdown).fences.map(({ lang, line, code }) => [lang, line, code]),
    ).toEqual([
      ['ts', 1, 'let x = 1;'],
      ['md', 4, '```ts\ninner\n```'],
    ]);
  });

  it('does not let indentation hide a block, and strips the fence indentation from its code', () => {
    const { fences } = splitMarkdown('- step\n\n    ```ts\n    run();\n      nested();\n    ```\n');
    expect(fences).toEqual([
      { lang: 'ts', line: 3, code: 'run();\n  nested();', above: { line: 1, text: '- step' } },
    ]);
  });

  it('runs an unclosed fence to the end and gives a block without a language an empty one', () => {
    expect(splitMarkdown('```\nplain\n').fences).toEqual([{ lang: '', line: 1, code: 'plain\n' }]);
  });

  it('lists the lines outside blocks as prose, trimmed', () => {
    const { prose } = splitMarkdown('a\n```ts\nx\n```\n  <!-- c -->  ');
    expect(prose).toEqual([
      { line: 1, text: 'a' },
      { line: 5, text: '<!-- c -->' },
    ]);
  });
});
