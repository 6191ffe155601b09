import { describe, expect, it } from '@jest/globals';
import { readmeLineOf, toSnippetModule } from './snippet-module.js';

describe('toSnippetModule', () => {
  it('puts one declaration line per assumed name above a fragment and maps lines back', () => {
    const module = toSnippetModule(
      { line: 40, code: 'app;\nllm;', directive: { form: 'fragment', assumes: ['app', 'llm'] } },
      '/repo/test/docs/.snippets',
    );
    expect(module.fileName).toBe('/repo/test/docs/.snippets/readme-L0040.ts');
    expect(module.text.split('\n')).toEqual([
      expect.stringContaining('declare const app'),
      expect.stringContaining('declare const llm'),
      'app;',
      'llm;',
      'export {};',
      '',
    ]);
    expect([0, 1, 2, 3].map((index) => readmeLineOf(module, index))).toEqual([
      undefined,
      undefined,
      41,
      42,
    ]);
  });

  it('keeps a runnable block as it is, named after it', () => {
    const module = toSnippetModule(
      { line: 7, code: 'export const app = 1;', directive: { form: 'runnable', name: 'demo' } },
      '/d',
    );
    expect(module).toMatchObject({
      fileName: '/d/readme-L0007-demo.ts',
      text: 'export const app = 1;\nexport {};\n',
      preludeLines: 0,
    });
    expect(readmeLineOf(module, 0)).toBe(8);
  });

  it.each(['client', 'toString'])(
    'refuses a fragment assuming %s, which is not declared',
    (name) => {
      expect(() =>
        toSnippetModule(
          { line: 1, code: '', directive: { form: 'fragment', assumes: [name] } },
          '/d',
        ),
      ).toThrow(`fragment assumes "${name}"`);
    },
  );
});
